import { ExitCode, LkError, UsageError } from '../../util/errors.js';
import type { IoStreams } from './io.js';

/** Reads a secret at the terminal without echoing it: raw mode, nothing written back but the question. */
export async function readHidden(io: IoStreams, question: string): Promise<string> {
  const stdin = io.stdin as NodeJS.ReadStream;
  io.stderr.write(question);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  try {
    return await new Promise<string>((resolve, reject) => {
      let value = '';
      const onData = (chunk: string) => {
        for (const char of chunk) {
          if (char === '\r' || char === '\n') {
            stdin.off('data', onData);
            resolve(value);
            return;
          }
          if (char === '\u0003') {
            stdin.off('data', onData);
            reject(new LkError('interrupted', ExitCode.interrupted));
            return;
          }
          if (char === '\u0004' && value === '') {
            stdin.off('data', onData);
            reject(new UsageError('no key entered'));
            return;
          }
          if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
          else if (char >= ' ') value += char;
        }
      };
      stdin.on('data', onData);
    });
  } finally {
    stdin.setRawMode(false);
    stdin.pause();
    io.stderr.write('\n');
  }
}

/**
 * The first line of standard input (for `--with-key`, e.g. `lk auth login --with-key < key.txt`), read up to `max`
 * characters: an endless stream without a line end (a device, a wrong pipe) is refused instead of read for ever.
 */
export async function readFirstLine(io: IoStreams, max = 4096): Promise<string> {
  let text = '';
  io.stdin.setEncoding?.('utf8');
  for await (const chunk of io.stdin) {
    text += chunk as string;
    if (text.includes('\n')) break;
    if (text.length > max) {
      (io.stdin as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      throw new UsageError(`standard input holds more than ${max / 1024} KiB before its first line end: that is not a key`);
    }
  }
  const line = text.split(/\r?\n/, 1)[0]!;
  if (line.length > max) throw new UsageError(`standard input holds more than ${max / 1024} KiB before its first line end: that is not a key`);
  return line.trim();
}
