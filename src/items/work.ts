import { firstOf, getPath } from '../util/object-path.js';
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

/**
 * Where an item names its work's id: an entry's or an event's work, a calendar item's show, a review's entry's work,
 * or flat (workId; a calendar's showId).
 */
export const WORK_ID_PATHS = ['work.id', 'show.id', 'workId', 'showId', 'entry.work.id'] as const;

/** The id of the work an item is of (an entry, an event, a calendar or list item, a review). */
export const workIdOf = (item: unknown): string | null => text(firstOf(item, WORK_ID_PATHS));

export const workTitleOf = (work: unknown): string | null => text(firstOf(work, ['title', 'name', 'titles.en']));

/** The title of the work an item (an event, a review) carries, when it carries one. */
export const itemWorkTitleOf = (item: unknown): string | null => workTitleOf(getPath(item, 'work'));

export const workTypeOf = (work: unknown): string | null => text(firstOf(work, ['type', 'kind', 'mediaType']));

/** Its original title, as sent. */
export const workOriginalTitleOf = (work: unknown): unknown => firstOf(work, ['originalTitle', 'original_title']);

/** Its year, as sent; else the text of a date it was released or published on (a caller reads the year off it). */
export const workYearOf = (work: unknown): unknown => firstOf(work, ['year', 'releaseYear', 'firstPublishYear', 'publishedYear']);
export const workReleaseDateOf = (work: unknown): unknown => firstOf(work, ['releaseDate', 'firstAirDate', 'publishedDate', 'published', 'released']);

/** Ids elsewhere (what lk convert's formats need): as sent, a caller checks their shape. */
export const workIsbn13Of = (work: unknown): unknown => firstOf(work, ['isbn13', 'isbn_13', 'ids.isbn13', 'externalIds.isbn13']);
export const workIsbn10Of = (work: unknown): unknown => firstOf(work, ['isbn10', 'isbn_10', 'ids.isbn10', 'externalIds.isbn10']);
export const workMalIdOf = (work: unknown): unknown =>
  firstOf(work, ['malId', 'idMal', 'ids.mal', 'ids.myanimelist', 'externalIds.mal', 'externalIds.myanimelist']);
export const workImdbIdOf = (work: unknown): unknown => firstOf(work, ['imdbId', 'imdbID', 'ids.imdb', 'externalIds.imdb']);

/** Its authors (one, or a list), page count, episode count, publisher, cover image and release format, as sent. */
export const workAuthorsOf = (work: unknown): unknown => firstOf(work, ['authors', 'author', 'creators', 'creator', 'writers']);
export const workPagesOf = (work: unknown): unknown => firstOf(work, ['pages', 'pageCount', 'numberOfPages']);
export const workEpisodesOf = (work: unknown): unknown => firstOf(work, ['episodes', 'episodeCount', 'totalEpisodes']);
export const workPublisherOf = (work: unknown): unknown => firstOf(work, ['publisher', 'publishers.0']);
export const workImageOf = (work: unknown): unknown =>
  firstOf(work, ['image', 'imageUrl', 'poster', 'posterUrl', 'cover', 'coverUrl', 'coverImage.large']);
export const workFormatOf = (work: unknown): unknown => firstOf(work, ['format', 'subtype', 'animeType', 'showType', 'releaseType']);

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
