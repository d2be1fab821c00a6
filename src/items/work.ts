import { firstOf } from '../util/object-path.js';
import { isObject } from '../util/json-value.js';
import { DOMAINS } from '../vocabulary.js';
import { text } from './values.js';

/** A work (docs/api.md: `id`, `source`, `sourceId`, `url`); its title, type and domain under the spellings lk knows. */

type Item = Record<string, unknown>;

/** The work an entry, an event or a calendar item carries (`work`, or a calendar's `show`), when it has an id. */
export function workOf(item: unknown): Item | undefined {
  const work = firstOf(item, ['work', 'show']);
  return isObject(work) && text(work.id) !== null ? work : undefined;
}

export const workTitleOf = (work: unknown): string | null => text(firstOf(work, ['title', 'name']));

export const workTypeOf = (work: unknown): string | null => text(firstOf(work, ['type', 'kind', 'mediaType']));

const DOMAIN_OF_TYPE: Record<string, string> = {
  film: 'MEDIA',
  movie: 'MEDIA',
  series: 'MEDIA',
  show: 'MEDIA',
  tv: 'MEDIA',
  anime: 'MEDIA',
  game: 'GAMES',
  book: 'BOOKS',
  album: 'MUSIC',
};
const DOMAIN_NAMES = new Set<string>(DOMAINS);

/** The domain of a work: its own field when it has one, else read from its type. */
export function workDomain(work: unknown): string | null {
  const said = text(firstOf(work, ['domain']));
  if (said && DOMAIN_NAMES.has(said.toUpperCase())) return said.toUpperCase();
  const type = workTypeOf(work);
  return type ? (DOMAIN_OF_TYPE[type.toLowerCase()] ?? null) : null;
}
