import { scanItems } from '../util/json-scan.js';

/**
 * Reads a JSON document of the export's shape — one object whose members are mostly long arrays — from a stream
 * of chunks (the export cache's) without holding it whole: each element of a top-level array, and each other
 * top-level value, is cut out of the byte stream (util/json-scan.ts) and parsed on its own. A 120 MB export then
 * costs a few MB at a time instead of a gigabyte of objects. Text that is not such a document throws a SyntaxError.
 */

export interface JsonMember {
  key: string;
  value: unknown;
  /** True for one element of a top-level array; false for a whole top-level value. */
  element: boolean;
}

/** Calls `visit` for each member as the chunks are read, and `opened` as each top-level array starts (an empty one too). */
export async function streamJsonMembers(
  source: AsyncIterable<Buffer>,
  visit: (member: JsonMember) => void,
  opened?: (key: string) => void,
): Promise<void> {
  for await (const items of scanItems(source)) {
    for (const item of items) {
      if (item.kind === 'array') opened?.(item.key);
      else visit({ key: item.key, value: JSON.parse(item.text) as unknown, element: item.kind === 'element' });
    }
  }
}
