/**
 * Letterboxd's import CSV (letterboxd.com/import): the columns its import page documents
 * (letterboxd.com/about/importing-data; not re-read for this contract, the page was out of reach), the value domains
 * checked against Letterboxd's own diary export (as in Yamtrack's import_letterboxd_csvs mock, November 2026: Rating
 * empty or 0.5–5 in halves, dates YYYY-MM-DD):
 *   LetterboxdURI   a letterboxd.com film URL (lk has none: empty)
 *   tmdbID, imdbID  TMDB number; IMDb tt-id. A tmdbID is written only when the work comes from TMDB
 *   Title, Year     the film's title and release year
 *   WatchedDate     YYYY-MM-DD, the local day of the watch; a row with it is a diary entry, without it "watched"
 *   Rating          0.5–5 in half stars; empty = unrated (Letterboxd has no zero: an unrated 0 stays empty)
 *   Rewatch         true | false (diary rows only); Tags comma-separated; Review free text
 * Films only: one diary row per dated film-seen event (Rewatch from cycle > 1), one row without a date for undated
 * watches and for films rated or done without a watch event. Letterboxd matches on LetterboxdURI, then tmdbID /
 * imdbID, then Title + Year; a row it cannot match is listed for the user to fix or drop in the import's review step,
 * never guessed silently by lk: rows with neither id are counted as matched by title.
 * Files stay under the import's 1 MB limit: more rows go to further files, each with its header.
 */
import { csvLine, packCsv } from './csv.js';
import { fraction, localDate, type ConvertOptions, type ScaleChoice, type Tally } from './common.js';
import { lastActivity, reviewText, type Entry, type HistoryEvent } from './model.js';

export const LETTERBOXD_COLUMNS = [
  'LetterboxdURI',
  'tmdbID',
  'imdbID',
  'Title',
  'Year',
  'WatchedDate',
  'Rating',
  'Rewatch',
  'Tags',
  'Review',
] as const;
/** "Files must be smaller than 1 MB": a decimal megabyte, the stricter reading. */
export const LETTERBOXD_MAX_BYTES = 1_000_000;

/** 0.5–5 in half stars; a rating of 0 (or below) is no rating, and any rating above it is at least half a star. */
export function letterboxdRating(rating: number, scale: ScaleChoice): string | undefined {
  if (rating <= 0) return undefined;
  return String(Math.max(1, Math.round(fraction(rating, scale) * 10)) / 2);
}

function isFilm(entry: Entry): boolean {
  return entry.work.type === 'film';
}

export function letterboxd(entries: Entry[], scale: ScaleChoice | undefined, options: ConvertOptions, tally: Tally): string[] {
  const rows: string[] = [];
  let coveredTotal = 0;
  tally.leaveOut('entries that are not films (Letterboxd holds films only)', entries.filter((entry) => !isFilm(entry)).length);
  for (const entry of entries.filter(isFilm)) {
    const { work } = entry;
    const tmdbID = work.source === 'tmdb' && work.sourceId !== undefined && /^\d+$/.test(work.sourceId) ? work.sourceId : undefined;
    if (work.title === undefined && tmdbID === undefined && work.imdbId === undefined) {
      tally.skip('films with neither a title nor a TMDB/IMDb id to match on');
      continue;
    }
    const rating = entry.rating !== undefined && scale ? letterboxdRating(entry.rating, scale) : undefined;
    const byTitle = tmdbID === undefined && work.imdbId === undefined;
    const row = (event: HistoryEvent | undefined, review: string | undefined) => {
      if (byTitle)
        tally.matchedByTitle(
          work.year === undefined ? 'films with no TMDB or IMDb id and no year: Title alone' : 'films with no TMDB or IMDb id: Title and Year',
        );
      return csvLine([
        undefined,
        tmdbID,
        work.imdbId,
        work.title,
        work.year,
        event?.date != null ? localDate(event.date, options.timeZone) : undefined,
        rating,
        event?.date != null ? String(event.cycle > 1) : undefined,
        undefined,
        review,
      ]);
    };
    const watches = entry.events.filter((event) => event.kind === undefined || event.kind === 'FILM_SEEN');
    const since = options.since;
    const dated = watches.filter((event) => event.date !== null && (since === undefined || event.date >= since));
    const undated = watches.filter((event) => event.date === null);
    tally.leaveOut('watches before --since', watches.filter((event) => event.date !== null && since !== undefined && event.date < since).length);
    const review = reviewText(entry);
    if (dated.length > 0) {
      dated.forEach((event, index) => rows.push(row(event, index === dated.length - 1 ? review : undefined)));
      tally.write('diary rows (dated watches)', dated.length);
    }
    if (since !== undefined) {
      tally.skip('undated watches (no date to compare with --since)', undated.length);
      if (watches.length > 0) continue;
      if ((lastActivity(entry) ?? Number.NEGATIVE_INFINITY) < since) {
        tally.leaveOut('films with no activity since --since');
        continue;
      }
    }
    if (undated.length > 0 && dated.length === 0) {
      // An undated watch has no day: Letterboxd records it as "watched" (with the rating), once per film.
      rows.push(row(undefined, review));
      tally.write('films watched without a date (watched rows with no diary date)');
    }
    // An undated watch before a dated rewatch is told by that row's Rewatch flag; any other is lost, and counted.
    const covered = undated.filter((event) => dated.some((watch) => watch.cycle > event.cycle)).length;
    coveredTotal += covered;
    tally.skip(
      'undated watches of a film already written (Letterboxd holds one undated watch per film, no count)',
      dated.length === 0 ? Math.max(0, undated.length - 1) : undated.length - covered,
    );
    if (watches.length > 0) continue;
    if (entry.phase === 'DONE' || entry.rating !== undefined) {
      rows.push(row(undefined, review));
      tally.write(
        entry.phase === 'DONE'
          ? 'films done without a watch event (written as watched rows)'
          : 'films rated without a watch (written as rating-only rows)',
      );
    } else if (entry.phase === 'PLANNED') {
      tally.leaveOut('planned films, never watched (Letterboxd imports a watchlist separately)');
    } else {
      tally.skip(`${(entry.phase ?? 'unknown').toLowerCase().replace('_', ' ')} films with no watch and no rating`);
    }
  }
  if (coveredTotal > 0) {
    tally.note(
      `${coveredTotal} undated earlier watch${coveredTotal === 1 ? '' : 'es'} of films logged again later: told by Rewatch=true on the dated row`,
    );
  }
  return packCsv(LETTERBOXD_COLUMNS, rows, options.maxFileBytes ?? LETTERBOXD_MAX_BYTES);
}
