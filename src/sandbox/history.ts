/**
 * History events. An entry's events are a pure function of its HistoryPlan, built the first time they are asked
 * for: a 100,000-entry library holds several hundred thousand events, and most runs never read them.
 */
import { episodeNumber } from './catalogue.js';
import type { EntryRecord, EventKind, EventRecord, HistoryPlan, WorkRecord } from './model.js';
import { Rng } from './rng.js';

const eventCache = new WeakMap<EntryRecord, EventRecord[]>();

interface EventShape {
  kind: EventKind;
  cycle: number;
  season?: number;
  episode?: number;
  minutes?: number;
  pages?: number;
}

/** How many events the first cycle (first viewing, playthrough or reading) has; mirrors cycleShapes without building them. */
export function firstCycleCount(work: WorkRecord, status: string, progress: EntryRecord['progress']): number {
  switch (work.type) {
    case 'film':
      return status === 'COMPLETED' ? 1 : 0;
    case 'series':
    case 'anime':
      return progress && 'episodes' in progress ? progress.episodes : 0;
    case 'game': {
      const minutes = progress && 'minutes' in progress ? progress.minutes : 0;
      return minutes === 0 ? 0 : gameSessions(minutes) + (status === 'COMPLETED' ? 1 : 0);
    }
    case 'book': {
      const pages = progress && 'pages' in progress ? progress.pages : 0;
      return pages === 0 ? 0 : readingSessions(pages) + (status === 'READ' ? 1 : 0);
    }
    case 'album':
      return status === 'LISTENED' ? 1 : 0;
  }
}

const gameSessions = (minutes: number) => Math.min(10, Math.max(1, Math.round(minutes / 150)));
const readingSessions = (pages: number) => Math.min(8, Math.max(1, Math.round(pages / 80)));

/** The entry's events in the order they happened (undated ones first: they come from an import of old activity). */
export function entryEvents(entry: EntryRecord): EventRecord[] {
  let events = eventCache.get(entry);
  if (!events) {
    events = buildEvents(entry);
    eventCache.set(entry, events);
  }
  return events;
}

function buildEvents(entry: EntryRecord): EventRecord[] {
  const { plan } = entry;
  if (plan.spanStart === null || plan.spanEnd === null) return [];
  const rng = new Rng(plan.seed);
  const shapes: EventShape[] = [];
  for (let cycle = 1; cycle <= plan.cycles; cycle += 1) shapes.push(...cycleShapes(entry.work, entry.status, entry.progress, cycle, rng));
  const dates = spreadDates(plan, shapes.length, rng);
  const events = shapes as EventRecord[];
  for (let n = 0; n < events.length; n += 1) {
    const event = events[n]!;
    event.id = `${entry.id}-${n + 1}`;
    event.entry = entry;
    event.date = n < plan.undated ? null : dates[n]!;
  }
  return events;
}

/** Dates from spanStart to spanEnd (exactly), increasing, with some jitter so the activity does not look metronomic. */
function spreadDates(plan: HistoryPlan, count: number, rng: Rng): number[] {
  const start = plan.spanStart!;
  const end = plan.spanEnd!;
  if (count === 1) return [end];
  const step = (end - start) / (count - 1);
  const dates: number[] = [];
  for (let n = 0; n < count; n += 1) {
    const jitter = n === 0 || n === count - 1 ? 0 : rng.next() * step * 0.8;
    dates.push(Math.round(start + n * step + jitter));
  }
  return dates;
}

function cycleShapes(work: WorkRecord, status: string, progress: EntryRecord['progress'], cycle: number, rng: Rng): EventShape[] {
  const shapes: EventShape[] = [];
  switch (work.type) {
    case 'film':
      if (status === 'COMPLETED') shapes.push({ kind: 'FILM_SEEN', cycle, minutes: work.runtimeMinutes! });
      break;
    case 'series':
    case 'anime': {
      const watched = progress && 'episodes' in progress ? progress.episodes : 0;
      // A rewatch covers the first season again.
      const count = cycle === 1 ? watched : Math.min(watched, work.episodesPerSeason!);
      for (let n = 1; n <= count; n += 1) shapes.push({ kind: 'EPISODE_SEEN', cycle, ...episodeNumber(work, n), minutes: work.runtimeMinutes! });
      break;
    }
    case 'game': {
      const minutes = progress && 'minutes' in progress ? progress.minutes : 0;
      if (minutes === 0) break;
      const sessions = cycle === 1 ? gameSessions(minutes) : 2;
      const perSession = cycle === 1 ? Math.max(10, Math.round(minutes / sessions)) : 90;
      for (let n = 0; n < sessions; n += 1) shapes.push({ kind: 'GAME_SESSION', cycle, minutes: Math.max(5, perSession + rng.int(-5, 5)) });
      if (status === 'COMPLETED') shapes.push({ kind: 'GAME_FINISHED', cycle });
      break;
    }
    case 'book': {
      const pages = progress && 'pages' in progress ? progress.pages : 0;
      if (pages === 0) break;
      const sessions = cycle === 1 ? readingSessions(pages) : 2;
      const perSession = Math.max(1, Math.round((cycle === 1 ? pages : work.pages!) / sessions));
      for (let n = 0; n < sessions; n += 1) shapes.push({ kind: 'READING_SESSION', cycle, pages: perSession });
      if (status === 'READ') shapes.push({ kind: 'BOOK_FINISHED', cycle });
      break;
    }
    case 'album':
      if (status === 'LISTENED') shapes.push({ kind: 'ALBUM_FINISHED', cycle });
      break;
  }
  return shapes;
}

/**
 * Newest first. Sorts are stable and their input order is fixed (library order, then each entry's own order), so
 * events with the same instant keep one order on every request and paging stays stable.
 */
export function compareEventsNewestFirst(a: EventRecord, b: EventRecord): number {
  return b.date! - a.date!;
}

/** One entry's events for GET /v1/library/{id}/history: dated newest first, then undated in the order they happened. */
export function entryHistory(entry: EntryRecord): EventRecord[] {
  const events = entryEvents(entry);
  const dated = events.filter((event) => event.date !== null).sort(compareEventsNewestFirst);
  const undated = events.filter((event) => event.date === null);
  return [...dated, ...undated];
}

/** Index of the first event (in a newest-first array) dated at or before `ms`. */
export function firstAtOrBefore(events: readonly EventRecord[], ms: number): number {
  let low = 0;
  let high = events.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (events[mid]!.date! > ms) low = mid + 1;
    else high = mid;
  }
  return low;
}
