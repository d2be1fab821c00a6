import { Writable } from 'node:stream';

/** A stream that keeps what is written to it, and says it is a terminal when asked to (by default it is a pipe). */
export class Capture extends Writable {
  text = '';
  isTTY: boolean | undefined;
  columns: number | undefined;
  rows: number | undefined;
  constructor(tty = false, columns?: number, rows?: number) {
    super({ decodeStrings: false });
    this.isTTY = tty || undefined;
    this.columns = tty ? columns : undefined;
    this.rows = tty ? rows : undefined;
  }
  onText: ((text: string) => void) | undefined;
  override _write(chunk: unknown, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.text += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    this.onText?.(this.text);
    done();
  }
}
