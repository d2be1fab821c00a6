import { getPath } from '../util/object-path.js';
import { text } from './values.js';

/**
 * Who may read an item (a review, a list), in every spelling servers use: docs/api.md names none, the sandbox says
 * `visibility`, other instances `isPrivate`, `private`, `public` or `isPublic`. These lists are the one record of
 * them: the accessors below read items with them, and lk serve's projection (readings/projection.ts) makes its SQL from
 * them, so that a spelling added here is honoured by both.
 */

/** Members that, true, make an item private. */
export const PRIVATE_FLAGS = ['isPrivate', 'private'] as const;
/** Members that, true, make an item public; false, private. */
export const PUBLIC_FLAGS = ['public', 'isPublic'] as const;
/** Members naming the audience in a word: this word is public, any other (private, friends…) is not. */
export const AUDIENCE_WORDS = ['visibility'] as const;
export const PUBLIC_WORD = 'public';

/**
 * What an item's marks say: `not public` when any says so (a private mark wins over a public one), `public` when
 * one says so and none says otherwise, `unmarked` when none is present. A flag is true or 1, false or 0 (SQLite's
 * json_extract reads JSON's true as 1: the SQL cannot tell them apart, so neither does this); a word is compared
 * lower-cased, and any other value but null (a number, an object) says not public, as SQLite reads it.
 */
export type Audience = 'public' | 'not public' | 'unmarked';

export function audienceOf(item: unknown): Audience {
  let publicMark = false;
  for (const member of PRIVATE_FLAGS) if (isOn(getPath(item, member))) return 'not public';
  for (const member of PUBLIC_FLAGS) {
    const value = getPath(item, member);
    if (isOff(value)) return 'not public';
    if (isOn(value)) publicMark = true;
  }
  for (const member of AUDIENCE_WORDS) {
    const value = getPath(item, member);
    if (value === undefined || value === null) continue;
    if (text(value)?.toLowerCase() !== PUBLIC_WORD) return 'not public';
    publicMark = true;
  }
  return publicMark ? 'public' : 'unmarked';
}

export const isOn = (value: unknown): boolean => value === true || value === 1;
const isOff = (value: unknown): boolean => value === false || value === 0;
