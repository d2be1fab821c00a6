/**
 * Goodreads' library export CSV, which Goodreads (goodreads.com/review/import), StoryGraph, Hardcover, BookWyrm and
 * Yamtrack import. Checked against BookWyrm's importer (bookwyrm/importers/importer.py at db40a61, August 2026: it
 * finds columns by header name, case-insensitive) and Yamtrack's (src/integrations/imports/goodreads.py, 46f5bf8):
 *   Book Id (empty: lk has no Goodreads id), Title, Author ("First Last"), Author l-f ("Last, First"),
 *   Additional Authors (comma-separated), ISBN, ISBN13 (="…" as Goodreads writes them; ="" when unknown),
 *   My Rating 0–5 whole stars (0 = unrated), Average Rating, Publisher, Binding, Number of Pages, Year Published,
 *   Original Publication Year, Date Read, Date Added (YYYY/MM/DD local days), Bookshelves (custom shelves,
 *   comma-separated), Bookshelves with positions, Exclusive Shelf, My Review, Spoiler (true or empty),
 *   Private Notes, Read Count, Owned Copies.
 * Exclusive Shelf is read | currently-reading | to-read: the only values every importer knows (Yamtrack's aborts
 * the whole import on any other, BookWyrm leaves the book unshelved). A dropped book goes on currently-reading (it
 * was started and not finished) with a did-not-finish custom shelf, and is counted as guessed.
 * Matching: on ISBN, then on title (and author); a book no importer finds is reported by it and not added (Yamtrack
 * warns and goes on). Rows without an ISBN are counted as matched by title.
 */
import { csvLine, packCsv } from './csv.js';
import { fraction, localDate, type ConvertOptions, type ScaleChoice, type Tally } from './common.js';
import { cycles, lastActivity, reviewText, type Entry } from './model.js';

export const GOODREADS_COLUMNS = [
  'Book Id',
  'Title',
  'Author',
  'Author l-f',
  'Additional Authors',
  'ISBN',
  'ISBN13',
  'My Rating',
  'Average Rating',
  'Publisher',
  'Binding',
  'Number of Pages',
  'Year Published',
  'Original Publication Year',
  'Date Read',
  'Date Added',
  'Bookshelves',
  'Bookshelves with positions',
  'Exclusive Shelf',
  'My Review',
  'Spoiler',
  'Private Notes',
  'Read Count',
  'Owned Copies',
] as const;

/** Goodreads' own exclusive shelves; a dropped book is on currently-reading, tagged with a custom shelf. */
const SHELF = { PLANNED: 'to-read', IN_PROGRESS: 'currently-reading', DONE: 'read', DROPPED: 'currently-reading' } as const;
const DROPPED_SHELF = 'did-not-finish';

/** 1–5 whole stars (Goodreads has no half stars, and 0 is "not rated"). */
export function goodreadsRating(rating: number, scale: ScaleChoice): number {
  return Math.max(1, Math.round(fraction(rating, scale) * 5));
}

/** ="…", as Goodreads writes ISBNs; an empty ISBN is ="" in its exports too. */
export function goodreadsIsbn(isbn: string | undefined): string {
  return `="${isbn ?? ''}"`;
}

function day(ms: number | undefined, timeZone: string | undefined): string | undefined {
  return ms === undefined ? undefined : localDate(ms, timeZone).replaceAll('-', '/');
}

/** "Collins, Suzanne" from "Suzanne Collins"; a single name stays as it is. */
function lastFirst(name: string): string {
  const parts = name.trim().split(/\s+/);
  return parts.length < 2 ? name : `${parts.at(-1)}, ${parts.slice(0, -1).join(' ')}`;
}

export function goodreads(entries: Entry[], scale: ScaleChoice | undefined, options: ConvertOptions, tally: Tally): string[] {
  const rows: string[] = [];
  let readUndated = 0;
  tally.leaveOut('entries that are not books (Goodreads holds books only)', entries.filter((entry) => entry.work.type !== 'book').length);
  for (const entry of entries.filter((e) => e.work.type === 'book')) {
    const { work } = entry;
    if (options.since !== undefined && (lastActivity(entry) ?? Number.NEGATIVE_INFINITY) < options.since) {
      tally.leaveOut('books with no activity since --since');
      continue;
    }
    if (work.title === undefined && work.isbn10 === undefined && work.isbn13 === undefined) {
      tally.skip('books with neither a title nor an ISBN to match on');
      continue;
    }
    if (entry.phase === undefined) {
      tally.skip('books with a status lk does not know (no shelf to put them on)');
      continue;
    }
    const finishes = entry.events.filter((event) => event.kind === 'BOOK_FINISHED');
    const lastFinish = finishes
      .map((event) => event.date)
      .filter((date): date is number => date !== null)
      .at(-1);
    const dateRead = entry.phase === 'DONE' ? (lastFinish ?? entry.finished) : undefined;
    const readCount = entry.phase === 'DONE' ? Math.max(cycles(entry), finishes.length, 1) : new Set(finishes.map((event) => event.cycle)).size;
    const shelf = SHELF[entry.phase];
    const [author, ...others] = work.authors;
    const review = entry.reviews.length > 0 ? reviewText(entry) : undefined;
    rows.push(
      csvLine([
        undefined,
        work.title,
        author,
        author === undefined ? undefined : lastFirst(author),
        others.join(', ') || undefined,
        goodreadsIsbn(work.isbn10),
        goodreadsIsbn(work.isbn13),
        entry.rating !== undefined && scale ? goodreadsRating(entry.rating, scale) : 0,
        undefined,
        work.publisher,
        undefined,
        work.pages,
        work.year,
        work.year,
        day(dateRead, options.timeZone),
        day(entry.added, options.timeZone),
        entry.phase === 'DROPPED' ? DROPPED_SHELF : undefined,
        undefined,
        shelf,
        review,
        entry.reviews.some((r) => r.spoiler) ? 'true' : undefined,
        entry.notes,
        readCount,
        0,
      ]),
    );
    tally.write(`books on ${shelf}`);
    if (entry.phase === 'DROPPED')
      tally.guess(`dropped books on currently-reading, with a ${DROPPED_SHELF} shelf (no exclusive shelf every importer reads means dropped)`);
    if (work.isbn10 === undefined && work.isbn13 === undefined)
      tally.matchedByTitle(author === undefined ? 'books with no ISBN and no author: title alone' : 'books with no ISBN: title and author');
    if (entry.phase === 'DONE' && dateRead === undefined) readUndated += 1;
  }
  if (readUndated > 0) tally.note(`${readUndated} read book${readUndated === 1 ? ' has' : 's have'} no date: Date Read left empty`);
  return packCsv(GOODREADS_COLUMNS, rows);
}
