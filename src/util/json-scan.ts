/**
 * Cuts a JSON document of the export's shape (one object whose members are mostly long arrays) into its parts as
 * the bytes arrive, without parsing them: each element of a top-level array, and each other top-level value, is
 * handed over as its exact text. lk sync parses each item on its own (a 120 MB export is never one object); lk diff
 * compares the texts and parses only the items that differ. A bare top-level array (one file of `lk export --git`)
 * is read as the elements of `arrayKey`.
 */

/** A top-level array beginning (empty ones too), one of its elements, or another top-level value, as written. */
export type ScanItem = { kind: 'array'; key: string } | { kind: 'element' | 'value'; key: string; text: string };

/** Where the text stops being the expected JSON (a SyntaxError, as JSON.parse would throw). */
export class ScanError extends SyntaxError {}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

type State = 'start' | 'key' | 'afterKey' | 'valueStart' | 'value' | 'elementStart' | 'element' | 'afterValue' | 'end';

/** Fed chunk by chunk; each feed returns the items the chunk completed. */
export class ExportScanner {
  private bytes = 0;
  private state: State = 'start';
  private depth = 0;
  private inString = false;
  private escape = false;
  private key = '';
  private pending: Buffer[] = [];
  private captureStart = -1;
  /** The document is one array (a file of lk export --git), not an object of members. */
  private bare = false;

  /** `arrayKey`: a document that is a bare array is read as the elements of this member. */
  constructor(private readonly arrayKey?: string) {}

  feed(chunk: Buffer): ScanItem[] {
    const items: ScanItem[] = [];
    const take = (end: number): string => {
      this.pending.push(chunk.subarray(this.captureStart, end));
      const text = this.pending.length === 1 ? this.pending[0]!.toString('utf8') : Buffer.concat(this.pending).toString('utf8');
      this.pending = [];
      this.captureStart = -1;
      // A value ends with } ] " or a letter or digit: trimEnd takes only the layout before a comma or bracket.
      return text.trimEnd();
    };
    const fail = (what: string, at: number): never => {
      throw new ScanError(`${what} at byte ${this.bytes + at}`);
    };
    // Next quote and backslash from i on, found once per stretch: strings are skipped with indexOf, not byte by byte.
    let nextQuote = -1;
    let nextBackslash = -1;
    const length = chunk.length;
    let i = 0;
    while (i < length) {
      if (this.inString) {
        if (this.escape) {
          this.escape = false;
          i += 1;
          continue;
        }
        if (nextQuote !== length && nextQuote < i) nextQuote = indexOrEnd(chunk, QUOTE, i);
        if (nextBackslash !== length && nextBackslash < i) nextBackslash = indexOrEnd(chunk, BACKSLASH, i);
        if (nextBackslash < nextQuote) {
          this.escape = true;
          i = nextBackslash + 1;
          continue;
        }
        if (nextQuote === length) break;
        this.inString = false;
        i = nextQuote + 1;
        if (this.state === 'key') {
          this.key = JSON.parse(take(i)) as string;
          this.state = 'afterKey';
        }
        continue;
      }
      const c = chunk[i]!;
      switch (this.state) {
        case 'start':
          if (c === OPEN_OBJECT) {
            this.depth = 1;
            this.state = 'key';
          } else if (c === OPEN_ARRAY && this.arrayKey !== undefined) {
            this.key = this.arrayKey;
            this.bare = true;
            items.push({ kind: 'array', key: this.key });
            this.depth = 2;
            this.state = 'elementStart';
          } else if (!isSpace(c)) fail('not a JSON object', i);
          break;
        case 'key':
          if (c === QUOTE) {
            this.inString = true;
            this.captureStart = i;
          } else if (c === CLOSE_OBJECT) {
            this.depth = 0;
            this.state = 'end';
          } else if (!isSpace(c)) fail('no member name', i);
          break;
        case 'afterKey':
          if (c === COLON) this.state = 'valueStart';
          else if (!isSpace(c)) fail('no colon', i);
          break;
        case 'valueStart':
          if (isSpace(c)) break;
          if (c === OPEN_ARRAY) {
            items.push({ kind: 'array', key: this.key });
            this.depth = 2;
            this.state = 'elementStart';
            break;
          }
          this.state = 'value';
          this.captureStart = i;
          continue; // read this byte again as part of the value
        case 'value':
          if (c === QUOTE) this.inString = true;
          else if (c === OPEN_OBJECT || c === OPEN_ARRAY) this.depth += 1;
          else if ((c === COMMA || c === CLOSE_OBJECT) && this.depth === 1) {
            items.push({ kind: 'value', key: this.key, text: take(i) });
            if (c === COMMA) this.state = 'key';
            else {
              this.depth = 0;
              this.state = 'end';
            }
          } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) this.depth -= 1;
          break;
        case 'elementStart':
          if (isSpace(c)) break;
          if (c === CLOSE_ARRAY) {
            this.depth = 1;
            this.state = this.bare ? 'end' : 'afterValue';
            break;
          }
          this.state = 'element';
          this.captureStart = i;
          continue;
        case 'element':
          if (c === QUOTE) this.inString = true;
          else if (c === OPEN_OBJECT || c === OPEN_ARRAY) this.depth += 1;
          else if ((c === COMMA || c === CLOSE_ARRAY) && this.depth === 2) {
            items.push({ kind: 'element', key: this.key, text: take(i) });
            if (c === COMMA) this.state = 'elementStart';
            else {
              this.depth = 1;
              this.state = this.bare ? 'end' : 'afterValue';
            }
          } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) this.depth -= 1;
          break;
        case 'afterValue':
          if (c === COMMA) this.state = 'key';
          else if (c === CLOSE_OBJECT) {
            this.depth = 0;
            this.state = 'end';
          } else if (!isSpace(c)) fail('no comma', i);
          break;
        case 'end':
          if (!isSpace(c)) fail('text after the end', i);
          break;
      }
      i += 1;
    }
    if (this.captureStart >= 0) {
      this.pending.push(chunk.subarray(this.captureStart));
      this.captureStart = 0;
    }
    this.bytes += length;
    return items;
  }

  /** After the last chunk: a document cut short is refused. */
  end(): void {
    if (this.state !== 'end') throw new ScanError(`the text ends early (after ${this.bytes} bytes)`);
  }
}

/** The items of a byte stream, a chunk's worth at a time. */
export async function* scanItems(source: AsyncIterable<Buffer>, arrayKey?: string): AsyncGenerator<ScanItem[]> {
  const scanner = new ExportScanner(arrayKey);
  for await (const chunk of source) {
    const items = scanner.feed(chunk);
    if (items.length > 0) yield items;
  }
  scanner.end();
}

function indexOrEnd(chunk: Buffer, byte: number, from: number): number {
  const at = chunk.indexOf(byte, from);
  return at === -1 ? chunk.length : at;
}
