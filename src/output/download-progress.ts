import { formatBytes } from './units.js';
import type { IoStreams } from '../io.js';

/**
 * A spinner on stderr while a large body downloads ("Downloading the export… 3 MiB of 12 MiB"), only when stderr is
 * a terminal and not -q. It appears with the first bytes, so that an answer from the cache never flashes one.
 */
export interface DownloadProgress {
  update(received: number, total: number | undefined): void;
  stop(): void;
}

const SILENT: DownloadProgress = { update() {}, stop() {} };

export async function downloadProgress(io: IoStreams, label: string): Promise<DownloadProgress> {
  // ora divides by the terminal's width: a pty that reports 0 columns would make it loop for ever.
  if (!io.mayShowProgress || !((io.stderr as { columns?: number }).columns! > 0)) return SILENT;
  const { default: ora } = await import('ora');
  const spinner = ora({ stream: io.stderr, discardStdin: false, hideCursor: true });
  return {
    update(received, total) {
      spinner.text = `${label}… ${formatBytes(received)}${total ? ` of ${formatBytes(total)}` : ''}`;
      if (!spinner.isSpinning) spinner.start();
    },
    stop() {
      if (spinner.isSpinning) spinner.stop();
    },
  };
}
