/**
 * What every converter shares: the rating scale (never guessed silently), local dates, the tally of rows written and
 * skipped with their reasons, and the options a conversion takes.
 */
import type { Domain, Entry, Phase } from './model.js';

export const TARGETS = ['letterboxd', 'goodreads', 'yamtrack', 'mal'] as const;
export type Target = (typeof TARGETS)[number];
export const RATING_SCALES = [5, 10, 100] as const;
export type RatingScale = (typeof RATING_SCALES)[number];

export interface ConvertOptions {
  /** Only activity at or after this moment (ms). Undated activity cannot be placed, so it is left out (and counted). */
  since?: number | undefined;
  /** Only this domain (yamtrack writes all four; the others hold one). */
  domain?: Domain | undefined;
  /** --rating-scale; detected from the data otherwise. */
  ratingScale?: RatingScale | undefined;
  /** IANA zone for local dates; the process's own zone (TZ) when undefined. */
  timeZone?: string | undefined;
  /** Letterboxd's import limit per file, in bytes. */
  maxFileBytes?: number | undefined;
  /** For MAL's <myinfo>. */
  account?: string | undefined;
}

export interface OutputFile {
  /** 1, 2, … when a target's file had to be split (Letterboxd's 1 MB limit); undefined for a single file. */
  part: number | undefined;
  content: string;
}

export interface ScaleChoice {
  scale: RatingScale;
  /** How it was found, for the stderr line. */
  how: string;
}

/** A row the importer would fail on or lose silently, as the target would have had it, for the `-unmatched.csv` file. */
export type UnmatchedRow = Record<string, string | number | undefined>;

/** Rows written and skipped, each with its reason, in the order reasons first appeared. */
export class Tally {
  readonly written = new Map<string, number>();
  readonly skipped = new Map<string, number>();
  /** Left out on purpose (--since, --domain, not the target's kind): reported, but not a loss for --strict. */
  readonly leftOut = new Map<string, number>();
  /** Rows the importer would fail on or drop silently: kept out of the file, into the unmatched one, by reason. */
  readonly setAside = new Map<string, UnmatchedRow[]>();
  /** Rows written that the importer can only match by title (no catalogue id, no ISBN), by kind. */
  readonly byTitle = new Map<string, number>();
  /** Rows written with a value lk had to choose because the target has none for it, by what was chosen. */
  readonly guessed = new Map<string, number>();
  readonly notes: string[] = [];

  setAsideRow(reason: string, row: UnmatchedRow): void {
    this.setAside.set(reason, [...(this.setAside.get(reason) ?? []), row]);
  }

  matchedByTitle(kind: string, count = 1): void {
    if (count > 0) this.byTitle.set(kind, (this.byTitle.get(kind) ?? 0) + count);
  }

  guess(what: string, count = 1): void {
    if (count > 0) this.guessed.set(what, (this.guessed.get(what) ?? 0) + count);
  }

  get rowsSetAside(): number {
    return sum([...this.setAside.values()].map((rows) => rows.length));
  }

  get rowsByTitle(): number {
    return sum([...this.byTitle.values()]);
  }

  get rowsGuessed(): number {
    return sum([...this.guessed.values()]);
  }

  /** What --strict refuses: any row skipped, set aside, guessed or matched by title. */
  get rowsNotCertain(): number {
    return this.rowsSkipped + this.rowsSetAside + this.rowsGuessed + this.rowsByTitle;
  }

  write(kind: string, count = 1): void {
    this.written.set(kind, (this.written.get(kind) ?? 0) + count);
  }

  skip(reason: string, count = 1): void {
    if (count > 0) this.skipped.set(reason, (this.skipped.get(reason) ?? 0) + count);
  }

  leaveOut(reason: string, count = 1): void {
    if (count > 0) this.leftOut.set(reason, (this.leftOut.get(reason) ?? 0) + count);
  }

  note(line: string): void {
    this.notes.push(line);
  }

  get rowsWritten(): number {
    return sum([...this.written.values()]);
  }

  get rowsSkipped(): number {
    return sum([...this.skipped.values()]);
  }
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

export interface ConvertResult {
  target: Target;
  files: OutputFile[];
  /** The rows set aside, as CSV (a `reason` column, then the target's own), or undefined when there are none. */
  unmatched: string | undefined;
  tally: Tally;
  scale: ScaleChoice | undefined;
}

/**
 * The instance's rating scale: --rating-scale, else the smallest of 5, 10 and 100 that holds every rating seen.
 * Undefined when nothing is rated (no rating is written, so no scale is needed).
 */
export function ratingScale(entries: Entry[], chosen: RatingScale | undefined): ScaleChoice | undefined {
  const ratings = entries.map((entry) => entry.rating).filter((rating): rating is number => rating !== undefined);
  if (chosen !== undefined) return { scale: chosen, how: 'from --rating-scale' };
  if (ratings.length === 0) return undefined;
  const max = Math.max(...ratings);
  const scale = RATING_SCALES.find((candidate) => max <= candidate);
  if (scale === undefined) {
    throw new ScaleError(`ratings go up to ${max}, beyond any scale lk knows (5, 10, 100)`);
  }
  return { scale, how: `detected: the highest of ${ratings.length} rating${ratings.length === 1 ? '' : 's'} is ${max}` };
}

export class ScaleError extends Error {}

/** A rating as a fraction 0–1 of the instance's scale (ratings below 0 count as 0). */
export function fraction(rating: number, scale: ScaleChoice): number {
  return Math.min(1, Math.max(0, rating / scale.scale));
}

/** YYYY-MM-DD of the moment in the given zone (the process's own when undefined): the day the user lived it. */
export function localDate(ms: number, timeZone: string | undefined): string {
  const parts = dayFormat(timeZone).formatToParts(new Date(ms));
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/**
 * One formatter per time zone: making an Intl.DateTimeFormat costs many times what formatting a date does. The
 * process's own zone is kept under the TZ it was made with (Node follows a TZ set while it runs).
 */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

function dayFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? `process TZ=${process.env.TZ ?? ''}`;
  let format = dayFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(key, format);
  }
  return format;
}

/** A UTC date-time without milliseconds: what Django's forms and most importers parse. */
export function utcDateTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * The phase a list service means: a show caught up while still airing (UP_TO_DATE) is still being watched, not
 * completed (MAL refuses Completed for an airing show, and Yamtrack would stop offering its new episodes).
 * One mapping for Yamtrack and MAL, so the two files never disagree.
 */
export function listPhase(entry: Entry): Phase | undefined {
  return entry.status === 'UP_TO_DATE' ? 'IN_PROGRESS' : entry.phase;
}
