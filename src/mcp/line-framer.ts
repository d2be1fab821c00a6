/**
 * The lines of a byte stream, one message each (MCP's stdio framing: a message a line, `\n` ending it, an optional
 * `\r` before it dropped). A line longer than `maxLineBytes` is not kept: its bytes are dropped as they come, and it
 * is handed on as `{ oversized }` once its end is read, so the reader can answer it and go on with the next line.
 * The SDK's ReadBuffer throws on such a line and keeps nothing to go on with.
 */

export type FramedLine = { text: string } | { oversized: number };

export class LineFramer {
  private readonly lines: FramedLine[] = [];
  /** The bytes of the line being read, not yet ended. */
  private partial: Buffer[] = [];
  private partialBytes = 0;
  /** The line being read is past the limit: its bytes are counted and dropped. */
  private dropping = false;
  /** Bytes of the whole lines waiting to be handed on. */
  queuedBytes = 0;

  constructor(private readonly maxLineBytes: number) {}

  append(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(0x0a, start);
      if (end === -1) break;
      this.take(chunk.subarray(start, end));
      this.endLine();
      start = end + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
  }

  /** The next whole line, or undefined when none is complete yet. */
  next(): FramedLine | undefined {
    const line = this.lines.shift();
    if (line && 'text' in line) this.queuedBytes -= line.text.length;
    return line;
  }

  clear(): void {
    this.lines.length = 0;
    this.partial = [];
    this.partialBytes = 0;
    this.dropping = false;
    this.queuedBytes = 0;
  }

  private take(bytes: Buffer): void {
    this.partialBytes += bytes.length;
    if (this.dropping) return;
    if (this.partialBytes > this.maxLineBytes) {
      this.dropping = true;
      this.partial = [];
      return;
    }
    // A copy: the stream may reuse the chunk's memory.
    if (bytes.length > 0) this.partial.push(Buffer.from(bytes));
  }

  private endLine(): void {
    if (this.dropping) {
      this.lines.push({ oversized: this.partialBytes });
    } else {
      const text = Buffer.concat(this.partial).toString('utf8').replace(/\r$/, '');
      this.lines.push({ text });
      this.queuedBytes += text.length;
    }
    this.partial = [];
    this.partialBytes = 0;
    this.dropping = false;
  }
}
