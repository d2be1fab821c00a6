/**
 * Reads a JSON document of the export's shape — one object whose members are mostly long arrays — from a stream
 * of chunks (the export cache's) without holding it whole: each element of a top-level array, and each other top-level value, is cut out of the
 * byte stream and parsed on its own. A 120 MB export then costs a few MB at a time instead of a gigabyte of objects.
 */

export interface JsonMember {
  key: string;
  value: unknown;
  /** True for one element of a top-level array; false for a whole top-level value. */
  element: boolean;
}

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

/** Calls `visit` for each member as the chunks are read, and `opened` as each top-level array starts (an empty one too). */
export async function streamJsonMembers(
  source: AsyncIterable<Buffer>,
  visit: (member: JsonMember) => void,
  opened?: (key: string) => void,
): Promise<void> {
  let bytes = 0;
  let state: State = 'start';
  let depth = 0;
  let inString = false;
  let escape = false;
  let key = '';
  let pending: Buffer[] = [];
  let captureStart = -1;

  const take = (chunk: Buffer, end: number): string => {
    pending.push(chunk.subarray(captureStart, end));
    const text = pending.length === 1 ? pending[0]!.toString('utf8') : Buffer.concat(pending).toString('utf8');
    pending = [];
    captureStart = -1;
    return text;
  };
  const fail = (what: string): never => {
    throw new SyntaxError(`the export is not the expected JSON object (${what} at byte ${bytes})`);
  };

  for await (const chunk of source) {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (inString) {
        if (escape) escape = false;
        else if (c === BACKSLASH) escape = true;
        else if (c === QUOTE) {
          inString = false;
          if (state === 'key') {
            key = JSON.parse(take(chunk, i + 1)) as string;
            state = 'afterKey';
          }
        }
        continue;
      }
      switch (state) {
        case 'start':
          if (c === OPEN_OBJECT) {
            depth = 1;
            state = 'key';
          } else if (!isSpace(c)) fail('no object');
          continue;
        case 'key':
          if (c === QUOTE) {
            inString = true;
            captureStart = i;
          } else if (c === CLOSE_OBJECT) {
            depth = 0;
            state = 'end';
          } else if (!isSpace(c)) fail('no member name');
          continue;
        case 'afterKey':
          if (c === COLON) state = 'valueStart';
          else if (!isSpace(c)) fail('no colon');
          continue;
        case 'valueStart':
          if (isSpace(c)) continue;
          if (c === OPEN_ARRAY) {
            opened?.(key);
            depth = 2;
            state = 'elementStart';
            continue;
          }
          state = 'value';
          captureStart = i;
          i -= 1; // read this byte again as part of the value
          continue;
        case 'value':
          if (c === QUOTE) inString = true;
          else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth += 1;
          else if ((c === COMMA && depth === 1) || (c === CLOSE_OBJECT && depth === 1)) {
            visit({ key, value: JSON.parse(take(chunk, i)) as unknown, element: false });
            if (c === COMMA) state = 'key';
            else {
              depth = 0;
              state = 'end';
            }
          } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth -= 1;
          continue;
        case 'elementStart':
          if (isSpace(c)) continue;
          if (c === CLOSE_ARRAY) {
            depth = 1;
            state = 'afterValue';
            continue;
          }
          state = 'element';
          captureStart = i;
          i -= 1;
          continue;
        case 'element':
          if (c === QUOTE) inString = true;
          else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth += 1;
          else if ((c === COMMA || c === CLOSE_ARRAY) && depth === 2) {
            visit({ key, value: JSON.parse(take(chunk, i)) as unknown, element: true });
            if (c === COMMA) state = 'elementStart';
            else {
              depth = 1;
              state = 'afterValue';
            }
          } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth -= 1;
          continue;
        case 'afterValue':
          if (c === COMMA) state = 'key';
          else if (c === CLOSE_OBJECT) {
            depth = 0;
            state = 'end';
          } else if (!isSpace(c)) fail('no comma');
          continue;
        case 'end':
          if (!isSpace(c)) fail('text after the object');
          continue;
      }
    }
    if (captureStart >= 0) {
      pending.push(chunk.subarray(captureStart));
      captureStart = 0;
    }
    bytes += chunk.length;
  }
  if (state !== 'end') fail('the document ends early');
}
