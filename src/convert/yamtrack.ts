/**
 * Yamtrack's own CSV (Settings → Import → Yamtrack), read by src/integrations/imports/yamtrack.py.
 * Checked against FuzzyGrim/Yamtrack as stored in November 2026: the class-based YamtrackImporter, src/app/forms.py
 * (09db833), integrations/imports/helpers.py (4eb29fd) and the header of tests/mock_data/import_yamtrack.csv (b33a56f).
 *
 * Columns, in Yamtrack's order (a DictReader: the header names are what counts):
 *   media_id        the catalogue's id (tmdb, mal, igdb numbers; an Open Library edition OL…M)
 *   source          tmdb | mal | igdb | openlibrary (Yamtrack also knows hardcover, comicvine, mangaupdates, manual)
 *   media_type      movie | tv | season | episode | anime | game | book (Yamtrack also has manga, comic)
 *   title, image    when either is empty Yamtrack fetches the work's metadata by id; lk writes the server's image
 *                   URL when it gives one (the sandbox gives none: one metadata fetch per row, by id)
 *   season_number   season and episode rows; episode_number: episode rows
 *   score           0–10, one decimal; empty = unscored
 *   progress        anime episodes, book pages, game time as h:mm (CustomDurationField); movie and tv ignore it
 *   status          Completed | In progress | Planning | Paused | Dropped (episode rows: empty)
 *   start_date, end_date   ISO 8601 UTC date-times (2026-11-23T20:15:00Z); an episode row's end_date is the watch
 *   notes           free text
 *   progressed_at   ISO 8601 UTC date-time: when the row's progress happened (Yamtrack's history date)
 * A tv row carries score, status and notes only (TvForm); seasons the same; an episode row its watch date only. So
 * a show is written as its tv row, a row per season watched and a row per episode watch from the history.
 * Repeats: Yamtrack's forms have no repeat count; it keeps every row as its own record and counts an item's records
 * as its repeats (app/models.py, 5b90114), so a rewatch is written as a repeated row: one movie row per watch, one
 * episode row per episode watch (an undated one with an empty end_date, which Episode allows), one row per earlier
 * finished cycle of an anime, book or game.
 *
 * A row without media_id is looked up by title in the type's default catalogue and the first result taken; when the
 * search finds nothing the importer raises and the whole import is aborted, nothing saved. Such rows (works from a
 * catalogue Yamtrack does not use: AniList anime, Open Library works, MusicBrainz) are never written to the file:
 * they go to the unmatched file for a manual pass.
 */
import { csvLine, packCsv } from './csv.js';
import { fraction, listPhase, utcDateTime, type ConvertOptions, type ScaleChoice, type Tally, type UnmatchedRow } from './common.js';
import { cycles, lastActivity, type Entry, type HistoryEvent, type Phase, type WorkType } from './model.js';

export const YAMTRACK_COLUMNS = [
  'media_id',
  'source',
  'media_type',
  'title',
  'image',
  'season_number',
  'episode_number',
  'score',
  'progress',
  'status',
  'start_date',
  'end_date',
  'notes',
  'progressed_at',
] as const;

type Row = Partial<Record<(typeof YAMTRACK_COLUMNS)[number], string | number>>;

const MEDIA_TYPE: Partial<Record<WorkType, string>> = { film: 'movie', series: 'tv', anime: 'anime', game: 'game', book: 'book' };
const STATUS: Record<Phase, string> = { PLANNED: 'Planning', IN_PROGRESS: 'In progress', DONE: 'Completed', DROPPED: 'Dropped' };
const ABORTS = 'no catalogue id Yamtrack uses: its title search aborts the whole import when it finds nothing';

/** 0–10 with one decimal, as Yamtrack stores scores. */
export function yamtrackScore(rating: number, scale: ScaleChoice): string {
  return (Math.round(fraction(rating, scale) * 100) / 10).toFixed(1);
}

/** The catalogue id Yamtrack would look up, when the work's own source is one Yamtrack uses for that type. */
function catalogue(entry: Entry): { mediaId: string; source: string } | undefined {
  const { work } = entry;
  const id = work.sourceId;
  if (work.type === 'anime' && work.malId) return { mediaId: work.malId, source: 'mal' };
  if (id === undefined) return undefined;
  if ((work.type === 'film' || work.type === 'series') && work.source === 'tmdb' && /^\d+$/.test(id)) return { mediaId: id, source: 'tmdb' };
  if (work.type === 'game' && work.source === 'igdb' && /^\d+$/.test(id)) return { mediaId: id, source: 'igdb' };
  // Yamtrack keys Open Library books by edition (OL…M); a work id (OL…W) would go to its title search.
  if (work.type === 'book' && work.source === 'openlibrary' && /^OL\d+M$/.test(id)) return { mediaId: id, source: 'openlibrary' };
  return undefined;
}

function gameTime(minutes: number): string {
  const whole = Math.max(0, Math.round(minutes));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

function progress(entry: Entry): string | undefined {
  const { work, progress: p } = entry;
  if (work.type === 'anime') return String(p.episodes ?? 0);
  if (work.type === 'book') return String(p.pages ?? 0);
  if (work.type === 'game') return gameTime(p.minutes ?? 0);
  return undefined;
}

/** A finished earlier cycle's progress: the whole work when its size is known. */
function fullProgress(entry: Entry): string | undefined {
  const total = entry.progress.total ?? (entry.work.type === 'book' ? entry.work.pages : entry.work.episodes);
  if (entry.work.type === 'game') return undefined;
  return total === undefined ? undefined : String(total);
}

const when = (ms: number | null | undefined) => (ms === undefined || ms === null ? undefined : utcDateTime(ms));

function line(row: Row): string {
  return csvLine(YAMTRACK_COLUMNS.map((column) => row[column]));
}

/** Cycle number → its events, oldest first (the entry's own order). */
function byCycle(events: HistoryEvent[]): Map<number, HistoryEvent[]> {
  const cycles = new Map<number, HistoryEvent[]>();
  for (const event of events) cycles.set(event.cycle, [...(cycles.get(event.cycle) ?? []), event]);
  return cycles;
}

function datesOf(events: HistoryEvent[]): number[] {
  return events.map((event) => event.date).filter((date): date is number => date !== null);
}

export function yamtrack(entries: Entry[], scale: ScaleChoice | undefined, options: ConvertOptions, tally: Tally): string[] {
  const rows: string[] = [];
  let showsWithoutEpisodes = 0;
  let repeatedRows = 0;
  for (const entry of entries) {
    const { work } = entry;
    if (options.domain !== undefined && work.domain !== options.domain) {
      tally.leaveOut(`entries outside --domain ${options.domain}`);
      continue;
    }
    if (options.since !== undefined && (lastActivity(entry) ?? Number.NEGATIVE_INFINITY) < options.since) {
      tally.leaveOut('entries with no activity since --since');
      continue;
    }
    const mediaType = work.type === undefined ? undefined : MEDIA_TYPE[work.type];
    if (mediaType === undefined) {
      tally.skip(work.type === 'album' ? 'albums (Yamtrack has no music)' : 'entries of a kind lk cannot tell (no Yamtrack media type)');
      continue;
    }
    const phase = listPhase(entry);
    if (phase === undefined) {
      tally.skip('entries with a status lk does not know');
      continue;
    }
    const id = catalogue(entry);
    const score = entry.rating !== undefined && scale ? yamtrackScore(entry.rating, scale) : undefined;
    const base: Row = { media_id: id?.mediaId, source: id?.source, media_type: mediaType, title: work.title, image: work.image, score };
    const current: Row = {
      ...base,
      progress: progress(entry),
      status: STATUS[phase],
      start_date: when(entry.started),
      end_date: when(phase === 'DONE' ? entry.finished : undefined),
      notes: entry.notes,
      progressed_at: when(lastActivity(entry)),
    };
    if (id === undefined) {
      tally.setAsideRow(ABORTS, current as UnmatchedRow);
      continue;
    }
    if (mediaType === 'tv') {
      const written = showRows(entry, base, current);
      rows.push(...written.lines);
      tally.write('tv rows (one per show)');
      tally.write('season rows', written.seasons);
      tally.write('episode rows (one per episode watch)', written.episodes);
      if (written.episodes === 0 && (entry.progress.episodes ?? 0) > 0) showsWithoutEpisodes += 1;
      continue;
    }
    const repeated = mediaType === 'movie' ? movieRows(entry, base, current) : earlierCycleRows(entry, base);
    rows.push(...repeated, line(current));
    repeatedRows += repeated.length;
    tally.write(`${mediaType} rows`, repeated.length + 1);
  }
  if (repeatedRows > 0) {
    tally.note(
      `${repeatedRows} repeated row${repeatedRows === 1 ? '' : 's'} for rewatches, rereads and replays (Yamtrack keeps each row as a record of its own; it reads no repeat count)`,
    );
  }
  if (showsWithoutEpisodes > 0)
    tally.note(
      `${showsWithoutEpisodes} show${showsWithoutEpisodes === 1 ? '' : 's'} with progress but no episode history: Yamtrack reads a show's status, score and notes only, so its episode count is not carried`,
    );
  return packCsv(YAMTRACK_COLUMNS, rows);
}

/** One movie row per watch before the last (Completed, on the watch's day); the entry's own row is the last watch. */
function movieRows(entry: Entry, base: Row, current: Row): string[] {
  const watches = entry.events.filter((event) => event.kind === undefined || event.kind === 'FILM_SEEN');
  const last = watches.at(-1);
  if (last !== undefined && current.end_date === undefined) current.end_date = when(last.date);
  return watches.slice(0, -1).map((watch) => line({ ...base, status: STATUS.DONE, end_date: when(watch.date), progressed_at: when(watch.date) }));
}

/** A row per finished cycle before the current one (a reread, a replay, an anime watched again). */
function earlierCycleRows(entry: Entry, base: Row): string[] {
  const total = cycles(entry);
  if (total < 2) return [];
  const events = byCycle(entry.events);
  const rows: string[] = [];
  for (let cycle = 1; cycle < total; cycle += 1) {
    const dates = datesOf(events.get(cycle) ?? []);
    const finished = dates.length === 0 ? undefined : Math.max(...dates);
    rows.push(
      line({
        ...base,
        progress: fullProgress(entry),
        status: STATUS.DONE,
        start_date: dates.length === 0 ? undefined : when(Math.min(...dates)),
        end_date: when(finished),
        progressed_at: when(finished),
      }),
    );
  }
  return rows;
}

/**
 * A show: its tv row (score, status, notes), then per season watched a season row, then an episode row per episode
 * watch (a rewatched episode is a second row). Episodes without a season or episode number cannot be placed.
 */
function showRows(entry: Entry, base: Row, current: Row): { lines: string[]; seasons: number; episodes: number } {
  const watches = entry.events.filter((event) => event.kind === 'EPISODE_SEEN' && event.season !== undefined && event.episode !== undefined);
  const seasons = [...new Set(watches.map((event) => event.season!))].sort((a, b) => a - b);
  const lines = [line({ ...base, status: current.status, notes: current.notes, progressed_at: current.progressed_at })];
  const lastSeason = seasons.at(-1);
  for (const season of seasons) {
    const own = watches.filter((event) => event.season === season);
    const dates = datesOf(own);
    lines.push(
      line({
        ...base,
        media_type: 'season',
        season_number: season,
        // Seasons before the last one watched are done; the last one has the show's own status.
        status: season === lastSeason ? current.status : STATUS.DONE,
        progressed_at: dates.length === 0 ? undefined : when(Math.max(...dates)),
      }),
    );
    for (const event of own) {
      lines.push(
        line({
          media_id: base.media_id,
          source: base.source,
          media_type: 'episode',
          title: base.title,
          season_number: season,
          episode_number: event.episode,
          end_date: when(event.date),
          progressed_at: when(event.date),
        }),
      );
    }
  }
  return { lines, seasons: seasons.length, episodes: watches.length };
}
