/**
 * Yamtrack's CSV import (Settings → Import → Yamtrack; the columns of its own export, read by
 * src/integrations/imports/yamtrack.py): one row per entry of every domain Yamtrack tracks (films, series, anime,
 * games, books; it has no music). A row carries media_id and source only when the work comes from a catalogue
 * Yamtrack uses under the same ids (tmdb, igdb, mal, openlibrary editions); otherwise both are empty and Yamtrack
 * looks the title up in its default catalogue for that media type.
 */
import { csvLine, packCsv } from './csv.js';
import { fraction, utcDateTime, type ConvertOptions, type ScaleChoice, type Tally } from './common.js';
import { cycles, lastActivity, type Entry, type WorkType } from './model.js';

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
  'repeats',
] as const;

const MEDIA_TYPE: Partial<Record<WorkType, string>> = { film: 'movie', series: 'tv', anime: 'anime', game: 'game', book: 'book' };
const STATUS = { PLANNED: 'Planning', IN_PROGRESS: 'In progress', DONE: 'Completed', DROPPED: 'Dropped' } as const;

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
  // Yamtrack keys Open Library books by edition (OL…M); a work id (OL…W) is left to its title search.
  if (work.type === 'book' && work.source === 'openlibrary' && /^OL\d+M$/.test(id)) return { mediaId: id, source: 'openlibrary' };
  return undefined;
}

function progress(entry: Entry): string {
  const { work, progress: p } = entry;
  switch (work.type) {
    case 'film':
      return entry.phase === 'DONE' ? '1' : '0';
    case 'series':
    case 'anime':
      return String(p.episodes ?? 0);
    case 'book':
      return String(p.pages ?? 0);
    case 'game': {
      const minutes = Math.max(0, Math.round(p.minutes ?? 0));
      return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
    }
    default:
      return '0';
  }
}

export function yamtrack(entries: Entry[], scale: ScaleChoice | undefined, options: ConvertOptions, tally: Tally): string[] {
  const rows: string[] = [];
  let bySearch = 0;
  let series = 0;
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
    if (entry.phase === undefined) {
      tally.skip('entries with a status lk does not know');
      continue;
    }
    const id = catalogue(entry);
    if (id === undefined && work.title === undefined) {
      tally.skip('entries with neither a title nor a catalogue id Yamtrack knows');
      continue;
    }
    if (id === undefined) bySearch += 1;
    if (work.type === 'series') series += 1;
    const repeats = Math.max(0, cycles(entry) - 1);
    rows.push(
      csvLine([
        id?.mediaId,
        id?.source,
        mediaType,
        work.title,
        undefined,
        undefined,
        undefined,
        entry.rating !== undefined && scale ? yamtrackScore(entry.rating, scale) : undefined,
        progress(entry),
        STATUS[entry.phase],
        entry.started === undefined ? undefined : utcDateTime(entry.started),
        entry.finished === undefined ? undefined : utcDateTime(entry.finished),
        entry.notes,
        entry.updated === undefined ? undefined : utcDateTime(entry.updated),
        repeats,
      ]),
    );
    tally.write(`${mediaType} rows`);
  }
  if (bySearch > 0)
    tally.note(
      `${bySearch} row${bySearch === 1 ? '' : 's'} without a catalogue id Yamtrack uses: it will look ${bySearch === 1 ? 'it' : 'them'} up by title`,
    );
  if (series > 0)
    tally.note(`${series} series written as one show row each (status, score, episodes watched, dates); per-episode history is not carried`);
  return packCsv(YAMTRACK_COLUMNS, rows);
}
