/** The sandbox's vocabulary: domains, statuses, phases, and the records its generator produces. */

import type { Domain, Phase } from '../vocabulary.js';

// The domains, phases and statuses of docs/api.md (Statuses and phases): the one vocabulary the client reads too (a leaf the sandbox may import).
export { DOMAINS, PHASES, PHASE_OF_STATUS, type Domain, type Phase } from '../vocabulary.js';

export const LANGS = ['en', 'fr', 'it'] as const;
export type Lang = (typeof LANGS)[number];

export const WORK_TYPES = ['film', 'series', 'anime', 'game', 'book', 'album'] as const;
export type WorkType = (typeof WORK_TYPES)[number];

export const DOMAIN_OF_TYPE: Record<WorkType, Domain> = {
  film: 'MEDIA',
  series: 'MEDIA',
  anime: 'MEDIA',
  game: 'GAMES',
  book: 'BOOKS',
  album: 'MUSIC',
};

/** The five catalogues (docs/api.md, Resources, Work.source). */
export type Source = 'tmdb' | 'anilist' | 'igdb' | 'openlibrary' | 'musicbrainz';
export const SOURCE_OF_TYPE: Record<WorkType, Source> = {
  film: 'tmdb',
  series: 'tmdb',
  anime: 'anilist',
  game: 'igdb',
  book: 'openlibrary',
  album: 'musicbrainz',
};

/** The status a freshly added entry gets in each domain. */
export const PLANNED_STATUS: Record<Domain, string> = { MEDIA: 'PLANNED', GAMES: 'BACKLOG', BOOKS: 'TO_READ', MUSIC: 'TO_LISTEN' };

export const EVENT_KINDS = [
  'EPISODE_SEEN',
  'FILM_SEEN',
  'GAME_SESSION',
  'READING_SESSION',
  'GAME_FINISHED',
  'BOOK_FINISHED',
  'ALBUM_FINISHED',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** A catalogue work as stored; rendered per request (titles depend on lang). */
export interface WorkRecord {
  index: number;
  id: string;
  source: Source;
  sourceId: string;
  type: WorkType;
  domain: Domain;
  /** English title always; fr/it only when the work was "opened" in that language (film and series). */
  titles: { en: string; fr?: string; it?: string };
  originalTitle?: string;
  year: number;
  runtimeMinutes?: number;
  seasons?: number;
  episodesPerSeason?: number;
  /** Every episode of the show (series and anime), an airing show's announced last season included. */
  episodes?: number;
  /** Airing shows: the episodes out as of the data day (not rendered; airedEpisodes gives them at any instant). */
  airedAtDataDay?: number;
  airing?: boolean;
  /** Airing shows: when episode 1 of the current (last) season aired; one episode a week from then. */
  seasonStartMs?: number;
  platforms?: string[];
  authors?: string[];
  pages?: number;
  artist?: string;
  tracks?: number;
}

export type Progress = { episodes: number; total: number } | { pages: number; total: number } | { minutes: number } | null;

export interface EntryRecord {
  id: string;
  account: string;
  work: WorkRecord;
  status: string;
  phase: Phase;
  rating: number | null;
  notes: string | null;
  added: number;
  started: number | null;
  finished: number | null;
  updated: number;
  progress: Progress;
  /** Generator inputs for the entry's history (built lazily). */
  plan: HistoryPlan;
}

/** What the history generator needs to rebuild an entry's events deterministically. */
export interface HistoryPlan {
  seed: number;
  /** 1 for a first time only; 2 when there was one rewatch, replay or reread, and so on. */
  cycles: number;
  /** Start and end of the activity (ms); null when the entry has no events. */
  spanStart: number | null;
  spanEnd: number | null;
  /** How many of the first cycle's events are undated (imported). */
  undated: number;
}

export interface EventRecord {
  id: string;
  entry: EntryRecord;
  kind: EventKind;
  date: number | null;
  cycle: number;
  season?: number;
  episode?: number;
  minutes?: number;
  pages?: number;
}

export interface ListItemRecord {
  type: 'work' | 'season' | 'episode';
  work: WorkRecord;
  season?: number;
  episode?: number;
  addedAt: number;
  note?: string;
}

/** A member a test adds to a review or a list as another server would spell it (isPrivate: true, visibility: "friends"). */
export type ExtraField = string | number | boolean | null;

export interface ListRecord {
  id: string;
  name: string;
  description: string | null;
  /** null: the list carries no visibility member (a list added with other marks, mutations.ts addList). */
  visibility: 'private' | 'friends' | 'public' | null;
  /** Members sent as they are, after the sandbox's own: another server's spelling of who may read the list. */
  fields?: Record<string, ExtraField>;
  shared: boolean;
  owner: string;
  createdAt: number;
  updatedAt: number;
  items: ListItemRecord[];
}

export interface ReviewRecord {
  id: string;
  entry: EntryRecord;
  headline: string;
  body: string;
  spoiler: boolean;
  /** Members sent as they are, after the sandbox's own: another server's spelling of privacy or spoilers. */
  fields?: Record<string, ExtraField>;
  likes: number;
  createdAt: number;
  updatedAt: number;
}

export interface AchievementRecord {
  id: string;
  name: string;
  description: string;
  domain: Domain | null;
  current: number;
  target: number;
  unlockedAt: number | null;
}

export interface NotificationRecord {
  id: string;
  kind: string;
  title: string;
  message: string;
  read: boolean;
  createdAt: number;
  url: string;
}

export interface AccountProfile {
  id: string;
  username: string;
  displayName: string;
  language: Lang;
  timezone: string;
  domains: Domain[];
  bio: string;
  location: string | null;
  joinedAt: number;
}

/** Where `url` fields point: pages of the (fictional) web application, never the API. */
export const APP_URL = 'https://app.lk.example';

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;
export const WEEK_MS = 7 * DAY_MS;

export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

export function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}
