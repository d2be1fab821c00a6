/**
 * One library entry of the seeded generator (src/sandbox/data.ts): its status, progress, rating and the plan its
 * history is drawn from, all from the work and a random stream.
 */
import { DAY_MS, HOUR_MS, PHASE_OF_STATUS, type EntryRecord, type Progress, type WorkRecord } from './model.js';
import { NOTES } from './vocab.js';
import { type Rng, hash32 } from './rng.js';
import { firstCycleCount } from './history.js';

/** A showcase entry's fixed values. */
export interface ShowcaseEntry {
  status: string;
  rating?: number | null;
  notes?: string;
  cycles?: number;
  imported?: boolean;
}

/** Fixed statuses of the demo account's showcase entries (same order as SHOWCASE). */
export const SHOWCASE_ENTRIES: ReadonlyArray<ShowcaseEntry> = [
  {
    status: 'COMPLETED',
    rating: 9,
    cycles: 2,
    notes: 'Rewatched with "Léa", twice, and cried both times.\nThe café scenes, the music, the colours — all of it.',
  },
  { status: 'COMPLETED', rating: 10 },
  { status: 'COMPLETED', rating: 7, cycles: 2, imported: true },
  { status: 'UP_TO_DATE', rating: 10 },
  { status: 'PLAYING', notes: 'Save file on the Switch, not the PC' },
  { status: 'READING', notes: 'Chapter 12, page 480; "the village" part drags, a bit.' },
  { status: 'LISTENED', rating: 8 },
  { status: 'DROPPED', rating: 4 },
  { status: 'WATCHING', rating: null },
  { status: 'PLANNED' },
  { status: 'UP_TO_DATE', rating: 8 },
  { status: 'PLANNED' },
];

/** `ms + delay`, or a random instant between `ms` and `limit` when that would pass the limit. */
export function soonAfter(ms: number, delay: number, limit: number, rng: Rng): number {
  if (ms >= limit) return ms;
  return ms + delay <= limit ? ms + delay : Math.round(ms + (limit - ms) * rng.next());
}

/** Episodes of a show out as of the data day: all of them unless it airs. */
function airedByDataDay(work: WorkRecord): number {
  return work.airedAtDataDay ?? work.episodes!;
}

export function plannedProgress(work: WorkRecord): Progress {
  switch (work.type) {
    case 'series':
    case 'anime':
      return { episodes: 0, total: work.episodes! };
    case 'book':
      return { pages: 0, total: work.pages! };
    case 'game':
      return { minutes: 0 };
    default:
      return null;
  }
}

/** How often each status occurs (DONE stands for COMPLETED, or UP_TO_DATE while the show airs). */
const STATUS_WEIGHTS = {
  film: { PLANNED: 30, COMPLETED: 62, DROPPED: 8 },
  show: { PLANNED: 20, WATCHING: 25, DONE: 45, DROPPED: 10 },
  game: { BACKLOG: 35, PLAYING: 15, COMPLETED: 40, DROPPED: 10 },
  book: { TO_READ: 35, READING: 12, READ: 45, DROPPED: 8 },
  album: { TO_LISTEN: 30, LISTENED: 70 },
} as const;

function pickStatus(work: WorkRecord, rng: Rng): string {
  switch (work.type) {
    case 'film':
      return rng.weighted(STATUS_WEIGHTS.film);
    case 'series':
    case 'anime': {
      const status = rng.weighted(STATUS_WEIGHTS.show);
      const done = work.airing ? 'UP_TO_DATE' : 'COMPLETED';
      if (status === 'DONE') return done;
      // WATCHING means some aired episodes are still unseen.
      if (status === 'WATCHING' && airedByDataDay(work) < 2) return done;
      return status;
    }
    case 'game':
      return rng.weighted(STATUS_WEIGHTS.game);
    case 'book':
      return rng.weighted(STATUS_WEIGHTS.book);
    case 'album':
      return rng.weighted(STATUS_WEIGHTS.album);
  }
}

function pickProgress(work: WorkRecord, status: string, rng: Rng): Progress {
  switch (work.type) {
    case 'series':
    case 'anime': {
      // Seen among the episodes out by the data day; the total is the show's, so behind ≤ total − seen at any time.
      const aired = airedByDataDay(work);
      const episodes =
        status === 'PLANNED'
          ? 0
          : status === 'WATCHING'
            ? rng.int(1, aired - 1)
            : status === 'DROPPED'
              ? rng.int(1, Math.max(1, Math.ceil(aired / 2)))
              : aired;
      return { episodes, total: work.episodes! };
    }
    case 'book': {
      const total = work.pages!;
      const pages =
        status === 'TO_READ' ? 0 : status === 'READING' ? rng.int(1, total - 1) : status === 'DROPPED' ? rng.int(1, Math.ceil(total / 2)) : total;
      return { pages, total };
    }
    case 'game': {
      const minutes =
        status === 'BACKLOG' ? 0 : status === 'PLAYING' ? rng.int(30, 3000) : status === 'COMPLETED' ? rng.int(300, 6000) : rng.int(20, 900);
      return { minutes };
    }
    default:
      return null;
  }
}

const DONE_RATINGS = { '10': 8, '9': 14, '8': 22, '7': 20, '6': 12, '5': 8, '4': 5, '3': 4, '2': 4, '1': 3 } as const;

/** How long the activity lasts, per cycle. */
function activityDays(work: WorkRecord, firstCycleEvents: number, rng: Rng): number {
  switch (work.type) {
    case 'film':
    case 'album':
      return rng.int(30, 400);
    case 'series':
    case 'anime':
      return Math.max(1, Math.round(firstCycleEvents * (0.3 + rng.next() * 3)));
    case 'game':
    case 'book':
      return Math.max(1, Math.round(firstCycleEvents * (1 + rng.next() * 3)));
  }
}

export function generateEntry(
  account: string,
  id: string,
  work: WorkRecord,
  added: number,
  rng: Rng,
  dataDay: number,
  forced?: ShowcaseEntry,
): EntryRecord {
  const status = forced?.status ?? pickStatus(work, rng);
  const phase = PHASE_OF_STATUS[work.domain][status]!;
  const progress = pickProgress(work, status, rng);
  let rating: number | null = null;
  if (forced && forced.rating !== undefined) rating = forced.rating;
  else if (phase === 'DONE' && rng.chance(0.78)) rating = Number(rng.weighted(DONE_RATINGS));
  else if (phase === 'DROPPED' && rng.chance(0.45)) rating = rng.int(1, 6);
  else if (phase === 'IN_PROGRESS' && rng.chance(0.2)) rating = rng.int(5, 10);
  const notes = forced?.notes ?? (rng.chance(0.07) ? rng.pick(NOTES) : null);

  let cycles = forced?.cycles ?? 1;
  if (!forced && phase === 'DONE' && status !== 'UP_TO_DATE') {
    const rewatch = work.type === 'album' ? 0.3 : work.type === 'film' ? 0.15 : 0.08;
    if (rng.chance(rewatch)) cycles = rng.chance(0.25) ? 3 : 2;
  }
  const firstCycle = firstCycleCount(work, status, progress);
  const latest = dataDay - HOUR_MS;
  let spanStart: number | null = null;
  let spanEnd: number | null = null;
  let undated = 0;
  if (firstCycle > 0) {
    spanStart = added + rng.int(0, 20) * DAY_MS + rng.int(0, 23) * HOUR_MS;
    // Squeeze rather than clamp near the data day, so recent activity does not pile up on one instant.
    if (spanStart > latest) spanStart = Math.round(added + (latest - added) * rng.next() * 0.5);
    if ((status === 'UP_TO_DATE' || status === 'WATCHING') && work.airing) {
      spanEnd = latest - rng.int(0, 6 * 24) * HOUR_MS; // keeping up with an airing show: recent activity
    } else {
      const days =
        work.type === 'film' || work.type === 'album'
          ? cycles === 1
            ? 0
            : activityDays(work, firstCycle, rng) * (cycles - 1)
          : activityDays(work, firstCycle, rng) * cycles;
      spanEnd = spanStart + days * DAY_MS + rng.int(1, 3) * HOUR_MS;
    }
    if (spanEnd > latest) spanEnd = Math.round(spanStart + (latest - spanStart) * (0.5 + rng.next() * 0.5));
    spanEnd = Math.max(spanStart, spanEnd);
    const imported = forced ? Boolean(forced.imported) : rng.chance(0.2);
    // An import brings old activity without dates: the first half of the first cycle.
    if (imported) undated = firstCycle >= 2 ? Math.ceil(firstCycle / 2) : firstCycle;
  }
  const hasEvents = spanStart !== null;
  const lastUndated = cycles === 1 && undated === firstCycle;
  const started = hasEvents && undated === 0 ? spanStart : null;
  const finished = hasEvents && phase === 'DONE' && status !== 'UP_TO_DATE' && !lastUndated ? spanEnd : null;
  const updated = Math.max(added, spanEnd ?? added);
  return {
    id,
    account,
    work,
    status,
    phase,
    rating,
    notes,
    added,
    started,
    finished,
    updated,
    progress,
    plan: { seed: hash32(rng.int(0, 0x7fffffff), id), cycles, spanStart, spanEnd, undated },
  };
}
