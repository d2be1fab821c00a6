import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { AuthError } from '../util/errors.js';
import { onInterrupt } from '../util/interrupt.js';
import { KEY_SOCKET_VARIABLE } from './key-socket-name.js';
import { keyFromFile } from './key-file.js';

/**
 * The key of LK_API_KEY_FILE lent to an extension without putting it, or the file's path, in its environment. While
 * the extension runs, the lk that runs it listens on a socket in a folder of its own (0700, as mkdtemp makes it) and
 * answers each connection with the key read from the file then; the extension's own `lk auth token` (or any lk
 * command) connects to LK_KEY_SOCKET. The socket is gone when the extension ends, so nothing it left running, and
 * nothing it wrote down, holds the key or a way to it. The same user could read the key file itself: the socket gives
 * no one more than that.
 */
export interface LentKey {
  readonly env: Record<string, string>;
  close(): Promise<void>;
}

const MAX_ANSWER_BYTES = 8192;
const ANSWER_TIMEOUT_MS = 5000;

export async function lendKey(file: string): Promise<LentKey> {
  const folder = mkdtempSync(join(tmpdir(), 'lk-key-'));
  // Windows has no sockets in folders: a named pipe, under a name no one can guess.
  const path = process.platform === 'win32' ? `\\\\.\\pipe\\${basename(folder)}` : join(folder, 'socket');
  const removeFolder = () => rmSync(folder, { recursive: true, force: true });
  const forget = onInterrupt(removeFolder);
  const open = new Set<Socket>();
  const server = createServer((socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => {});
    let answer: { key: string } | { error: string; hint?: string };
    try {
      answer = { key: keyFromFile(file).key };
    } catch (error) {
      answer = { error: (error as Error).message, ...((error as AuthError).hint ? { hint: (error as AuthError).hint } : {}) };
    }
    socket.end(`${JSON.stringify(answer)}\n`);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => resolve());
    });
  } catch (error) {
    forget();
    removeFolder();
    throw error;
  }
  // The extension's lk connects while this lk waits for the extension: the server must not keep this lk alive after.
  server.unref();
  return {
    env: { [KEY_SOCKET_VARIABLE]: path },
    close: () =>
      new Promise((resolve) => {
        // A connection something the extension left behind holds open must not hold this lk's exit.
        for (const socket of open) socket.destroy();
        server.close(() => {
          forget();
          removeFolder();
          resolve();
        });
      }),
  };
}

/** The key from the socket LK_KEY_SOCKET names (an AuthError, exit 3, when it cannot be had). */
export function borrowKey(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const gone = () =>
      new AuthError(
        `${KEY_SOCKET_VARIABLE} names no lk to ask for the key (${path}): it is set only while lk runs an extension or a shell alias`,
        'Run this from the extension while lk runs it, or set LK_API_KEY_FILE.',
      );
    const socket = createConnection(path);
    // The lk that lends the key answers at once; anything else listening there is not it.
    socket.setTimeout(ANSWER_TIMEOUT_MS, () => socket.destroy());
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > MAX_ANSWER_BYTES) socket.destroy(gone());
    });
    socket.on('error', () => reject(gone()));
    // Ended without an answer (timed out): after one, rejecting changes nothing.
    socket.on('close', () => reject(gone()));
    socket.on('end', () => {
      let answer: { key?: unknown; error?: unknown; hint?: unknown };
      try {
        answer = JSON.parse(text) as typeof answer;
      } catch {
        return reject(gone());
      }
      if (typeof answer.key === 'string') return resolve(answer.key);
      reject(new AuthError(String(answer.error ?? 'no key'), typeof answer.hint === 'string' ? answer.hint : undefined));
    });
  });
}
