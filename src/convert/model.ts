/**
 * Raw items (as a server sent them) → one tolerant model per library entry, with its history and reviews joined.
 * docs/api.md fixes only a few names (work.id/source/sourceId, entry id/work/status/phase/rating/notes/dates/progress,
 * event cycle and a nullable date); every other field is read as optional, with the alternatives an independent
 * server might use, and a missing value stays undefined: it is never printed as "undefined".
 */

import { episodeOf, seasonOf } from '../items/calendar.js';
import {
  entryAddedAtOf,
  entryFinishedAtOf,
  entryNotesOf,
  entryRatingOf,
  entryStartedAtOf,
  entryUpdatedAtOf,
  entryWorkIdOf,
  ownerEntryIdOf,
  progressFiguresOf,
} from '../items/entry.js';
import { eventCycleOf, eventDateOf, eventKindOf } from '../items/event.js';
import { reviewBodyOf, reviewDateOf, reviewIsSpoiler, reviewTitleOf } from '../items/review.js';
import {
  workAuthorsOf,
  workEpisodesOf,
  workFormatOf,
  workImageOf,
  workImdbIdOf,
  workIsbn10Of,
  workIsbn13Of,
  workMalIdOf,
  workPagesOf,
  workPublisherOf,
  workReleaseDateOf,
  workTitleOf,
  workTypeOf,
  workOriginalTitleOf,
  workYearOf,
} from '../items/work.js';
import { domainOfStatus, phaseOf, PHASES, type Domain, type Phase } from '../vocabulary.js';

export type { Domain, Phase } from '../vocabulary.js';
export type WorkType = 'film' | 'series' | 'anime' | 'game' | 'book' | 'album';

/** What the converters see: the raw collections of an account, from the mirror or from an export. */
export interface AccountSnapshot {
  entries: unknown[];
  history: unknown[];
  reviews: unknown[];
}

export interface Work {
  id: string | undefined;
  title: string | undefined;
  originalTitle: string | undefined;
  year: number | undefined;
  source: string | undefined;
  sourceId: string | undefined;
  type: WorkType | undefined;
  domain: Domain | undefined;
  authors: string[];
  isbn10: string | undefined;
  isbn13: string | undefined;
  imdbId: string | undefined;
  /** A MyAnimeList id, from a `mal` source or a field that names MAL. */
  malId: string | undefined;
  pages: number | undefined;
  episodes: number | undefined;
  publisher: string | undefined;
  /** A cover or poster URL, when the server gives one. */
  image: string | undefined;
  /** The anime's release format as the server names it (TV, MOVIE, OVA, …), when it gives one. */
  format: string | undefined;
}

export interface HistoryEvent {
  kind: string | undefined;
  /** Milliseconds since the epoch, or null for an undated event (docs/api.md, Resources). */
  date: number | null;
  cycle: number;
  /** For EPISODE_SEEN: the season and episode numbers, when the server gives them. */
  season: number | undefined;
  episode: number | undefined;
}

export interface Review {
  title: string | undefined;
  body: string | undefined;
  spoiler: boolean;
  createdAt: number | undefined;
}

export interface Entry {
  id: string | undefined;
  work: Work;
  status: string | undefined;
  phase: Phase | undefined;
  rating: number | undefined;
  notes: string | undefined;
  added: number | undefined;
  started: number | undefined;
  finished: number | undefined;
  updated: number | undefined;
  progress: { episodes?: number; pages?: number; minutes?: number; total?: number };
  /** Oldest first; undated events keep their order after the dated ones. */
  events: HistoryEvent[];
  reviews: Review[];
}

type Obj = Record<string, unknown>;

function obj(value: unknown): Obj | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : undefined;
}

export function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

export function num(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

/** An ISO date (or epoch milliseconds) as milliseconds; anything unreadable is undefined. */
export function instant(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

function names(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.map((item) => text(item) ?? text(obj(item)?.name) ?? text(obj(item)?.displayName)).filter((name): name is string => name !== undefined);
}

const TYPES: Record<string, WorkType> = {
  film: 'film',
  movie: 'film',
  series: 'series',
  show: 'series',
  tv: 'series',
  anime: 'anime',
  game: 'game',
  videogame: 'game',
  book: 'book',
  album: 'album',
  music: 'album',
};
const DOMAINS: Record<string, Domain> = { MEDIA: 'MEDIA', VIDEO: 'MEDIA', GAMES: 'GAMES', BOOKS: 'BOOKS', MUSIC: 'MUSIC' };
const DOMAIN_OF_TYPE: Record<WorkType, Domain> = { film: 'MEDIA', series: 'MEDIA', anime: 'MEDIA', game: 'GAMES', book: 'BOOKS', album: 'MUSIC' };
const DOMAIN_OF_SOURCE: Record<string, Domain> = {
  tmdb: 'MEDIA',
  imdb: 'MEDIA',
  tvdb: 'MEDIA',
  anilist: 'MEDIA',
  mal: 'MEDIA',
  myanimelist: 'MEDIA',
  kitsu: 'MEDIA',
  igdb: 'GAMES',
  openlibrary: 'BOOKS',
  isbn: 'BOOKS',
  googlebooks: 'BOOKS',
  goodreads: 'BOOKS',
  musicbrainz: 'MUSIC',
  discogs: 'MUSIC',
};
const ANIME_SOURCES = new Set(['anilist', 'mal', 'myanimelist', 'kitsu', 'anidb']);

const DOMAIN_OF_KIND: Record<string, Domain> = {
  FILM_SEEN: 'MEDIA',
  EPISODE_SEEN: 'MEDIA',
  GAME_SESSION: 'GAMES',
  GAME_FINISHED: 'GAMES',
  READING_SESSION: 'BOOKS',
  BOOK_FINISHED: 'BOOKS',
  ALBUM_FINISHED: 'MUSIC',
};

function digits(value: unknown): string | undefined {
  const raw = text(value)?.replace(/[\s-]/g, '');
  return raw !== undefined && /^[0-9]+X?$/i.test(raw) ? raw.toUpperCase() : undefined;
}

function isbns(work: Obj): { isbn10: string | undefined; isbn13: string | undefined } {
  const candidates = [workIsbn13Of(work), workIsbn10Of(work), ...(Array.isArray(work.isbns) ? work.isbns : [work.isbn])].map(digits);
  const source = text(work.source)?.toLowerCase();
  if (source === 'isbn') candidates.push(digits(work.sourceId));
  return {
    isbn13: candidates.find((isbn) => isbn?.length === 13),
    isbn10: candidates.find((isbn) => isbn?.length === 10),
  };
}

function yearOf(work: Obj): number | undefined {
  const direct = num(workYearOf(work));
  if (direct !== undefined && Number.isInteger(direct)) return direct;
  const date = text(workReleaseDateOf(work));
  const match = date === undefined ? null : /^(\d{4})/.exec(date);
  return match ? Number(match[1]) : undefined;
}

export function readWork(raw: unknown, hints: { status?: string; kinds?: string[] } = {}): Work {
  const work = obj(raw) ?? {};
  const source = text(work.source)?.toLowerCase();
  const sourceId = text(work.sourceId);
  let type = TYPES[workTypeOf(work)?.toLowerCase() ?? ''];
  if (type === 'series' && source !== undefined && ANIME_SOURCES.has(source)) type = 'anime';
  if (type === undefined) {
    const kinds = hints.kinds ?? [];
    if (kinds.includes('FILM_SEEN')) type = 'film';
    else if (kinds.includes('EPISODE_SEEN')) type = source !== undefined && ANIME_SOURCES.has(source) ? 'anime' : 'series';
    else if (kinds.includes('BOOK_FINISHED') || kinds.includes('READING_SESSION')) type = 'book';
    else if (kinds.some((kind) => kind.startsWith('GAME_'))) type = 'game';
    else if (kinds.includes('ALBUM_FINISHED')) type = 'album';
  }
  const domain =
    DOMAINS[text(work.domain)?.toUpperCase() ?? ''] ??
    (type ? DOMAIN_OF_TYPE[type] : undefined) ??
    domainOfStatus(hints.status ?? '') ??
    (hints.kinds ?? []).map((kind) => DOMAIN_OF_KIND[kind]).find(Boolean) ??
    (source ? DOMAIN_OF_SOURCE[source] : undefined);
  // A domain with one kind of work settles the type when the server names none.
  if (type === undefined) type = ({ BOOKS: 'book', GAMES: 'game', MUSIC: 'album' } as const)[domain as 'BOOKS' | 'GAMES' | 'MUSIC'];
  const malFromSource = source === 'mal' || source === 'myanimelist' ? sourceId : undefined;
  const mal = text(malFromSource ?? workMalIdOf(work));
  const imdb = text(workImdbIdOf(work)) ?? (source === 'imdb' ? sourceId : undefined);
  return {
    id: text(work.id),
    title: text(workTitleOf(work)),
    originalTitle: text(workOriginalTitleOf(work)),
    year: yearOf(work),
    source,
    sourceId,
    type,
    domain,
    authors: names(workAuthorsOf(work)),
    ...isbns(work),
    imdbId: imdb !== undefined && /^tt\d+$/.test(imdb) ? imdb : undefined,
    malId: mal !== undefined && /^\d+$/.test(mal) ? mal : undefined,
    pages: num(workPagesOf(work)),
    episodes: num(workEpisodesOf(work)),
    publisher: text(workPublisherOf(work)),
    image: httpUrl(workImageOf(work)),
    format: text(workFormatOf(work))?.toUpperCase(),
  };
}

function httpUrl(value: unknown): string | undefined {
  const url = text(value);
  return url !== undefined && /^https?:\/\/\S+$/.test(url) ? url : undefined;
}

function count(value: unknown): number | undefined {
  const n = num(value);
  return n !== undefined && Number.isInteger(n) && n >= 0 ? n : undefined;
}

function readEvent(raw: Obj): HistoryEvent {
  const cycle = num(eventCycleOf(raw));
  const when = eventDateOf(raw);
  const date = when === null ? null : (instant(when) ?? null);
  return {
    kind: text(eventKindOf(raw))?.toUpperCase(),
    date,
    cycle: cycle !== undefined && cycle >= 1 ? Math.floor(cycle) : 1,
    season: count(seasonOf(raw)),
    episode: count(episodeOf(raw)),
  };
}

function readReview(raw: Obj): Review {
  return {
    title: text(reviewTitleOf(raw)),
    body: text(reviewBodyOf(raw)),
    spoiler: reviewIsSpoiler(raw),
    createdAt: instant(reviewDateOf(raw)),
  };
}

function progressOf(raw: unknown): Entry['progress'] {
  const progress = obj(raw);
  if (!progress) return typeof raw === 'number' ? { episodes: raw } : {};
  const out: Entry['progress'] = {};
  // An independent server may say {current, unit} instead of naming the unit as the field.
  const unit = text(progress.unit)?.toLowerCase();
  const current = (name: string) => (unit === name ? num(progress.current) : undefined);
  const figures = progressFiguresOf(progress);
  const episodes = num(figures.episodes) ?? current('episodes');
  const pages = num(figures.pages) ?? current('pages');
  const minutes = num(figures.minutes) ?? current('minutes');
  const total = num(figures.total);
  if (episodes !== undefined) out.episodes = episodes;
  if (pages !== undefined) out.pages = pages;
  if (minutes !== undefined) out.minutes = minutes;
  if (total !== undefined) out.total = total;
  return out;
}

/** Events by entry: docs/api.md names no link field, so the entry id under its usual names, else the work's id. */
function eventKeys(raw: Obj): string[] {
  return [text(ownerEntryIdOf(raw)), text(entryWorkIdOf(raw))].filter((key): key is string => key !== undefined);
}

/**
 * Joins history events and reviews to their entries; the entries keep their own order. `unmatched` counts the
 * events and reviews no entry claimed, so that the summary can say so.
 */
export function readEntries(snapshot: AccountSnapshot): { entries: Entry[]; unmatched: { entries: number; events: number; reviews: number } } {
  const rawEntries = snapshot.entries.map(obj).filter((entry): entry is Obj => entry !== undefined);
  const byKey = new Map<string, number>();
  rawEntries.forEach((entry, index) => {
    const id = text(entry.id);
    const workId = text(entryWorkIdOf(entry));
    if (id !== undefined) byKey.set(`e:${id}`, index);
    if (workId !== undefined && !byKey.has(`w:${workId}`)) byKey.set(`w:${workId}`, index);
  });
  const locate = (raw: Obj): number | undefined => {
    const [entryKey, workKey] = [text(ownerEntryIdOf(raw)), text(entryWorkIdOf(raw))];
    return (entryKey !== undefined ? byKey.get(`e:${entryKey}`) : undefined) ?? (workKey !== undefined ? byKey.get(`w:${workKey}`) : undefined);
  };
  const unmatched = { entries: snapshot.entries.length - rawEntries.length, events: 0, reviews: 0 };
  const events: HistoryEvent[][] = rawEntries.map(() => []);
  for (const raw of snapshot.history.map(obj)) {
    const index = raw && eventKeys(raw).length > 0 ? locate(raw) : undefined;
    if (index === undefined) unmatched.events += 1;
    else events[index]!.push(readEvent(raw!));
  }
  const reviews: Review[][] = rawEntries.map(() => []);
  for (const raw of snapshot.reviews.map(obj)) {
    const index = raw ? locate(raw) : undefined;
    if (index === undefined) unmatched.reviews += 1;
    else reviews[index]!.push(readReview(raw!));
  }
  const entries = rawEntries.map((entry, index): Entry => {
    const status = text(entry.status)?.toUpperCase();
    const own = events[index]!;
    // Dated events oldest first (the API sends them newest first); undated ones keep their order, after them.
    const dated = own.filter((event) => event.date !== null).sort((a, b) => a.date! - b.date!);
    const undated = own.filter((event) => event.date === null);
    const phaseRaw = text(entry.phase)?.toUpperCase();
    const phase = PHASES.find((p) => p === phaseRaw) ?? phaseOf(status ?? '');
    const rating = num(entryRatingOf(entry));
    return {
      id: text(entry.id),
      work: readWork(entry.work, { ...(status ? { status } : {}), kinds: own.map((event) => event.kind ?? '') }),
      status,
      phase,
      rating,
      notes: text(entryNotesOf(entry)),
      added: instant(entryAddedAtOf(entry)),
      started: instant(entryStartedAtOf(entry)),
      finished: instant(entryFinishedAtOf(entry)),
      updated: instant(entryUpdatedAtOf(entry)),
      progress: progressOf(entry.progress),
      events: [...dated, ...undated],
      reviews: reviews[index]!,
    };
  });
  return { entries, unmatched };
}

/** The newest moment anything happened to the entry, for --since on the targets that write one row per entry. */
export function lastActivity(entry: Entry): number | undefined {
  const dates = [entry.finished, entry.updated, entry.started, entry.added, ...entry.events.map((event) => event.date ?? undefined)];
  const known = dates.filter((date): date is number => date !== undefined);
  return known.length === 0 ? undefined : Math.max(...known);
}

/** The review text for a target's one review column: the body, under its title when both exist. */
export function reviewText(entry: Entry): string | undefined {
  const review = [...entry.reviews].sort((a, b) => (b.createdAt ?? 0) - (a.createdAt ?? 0))[0];
  if (!review) return undefined;
  if (review.title && review.body) return `${review.title}\n\n${review.body}`;
  return review.body ?? review.title;
}

/** Highest cycle seen, at least 1 for anything done. */
export function cycles(entry: Entry): number {
  return entry.events.reduce((max, event) => Math.max(max, event.cycle), entry.phase === 'DONE' ? 1 : 0);
}
