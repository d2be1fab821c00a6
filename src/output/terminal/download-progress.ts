import { statusLine, type StatusPart } from './progress.js';
import { formatBytes } from '../../util/units.js';
import type { IoStreams } from './io.js';

/**
 * "Downloading the export… 3 MiB of 12 MiB" on the status line (shared with a rate-limit countdown), only when stderr
 * is a terminal and not -q. It appears with the first bytes, so that an answer from the cache never flashes one.
 */
export interface DownloadProgress {
  update(received: number, total: number | undefined): void;
  stop(): void;
}

const SILENT: DownloadProgress = { update() {}, stop() {} };

export async function downloadProgress(io: IoStreams, label: string): Promise<DownloadProgress> {
  const line = statusLine(io);
  if (!line) return SILENT;
  let part: StatusPart | undefined;
  return {
    update(received, total) {
      (part ??= line.open()).set(`${label}… ${formatBytes(received)}${total ? ` of ${formatBytes(total)}` : ''}`);
    },
    stop() {
      part?.close();
      part = undefined;
    },
  };
}
