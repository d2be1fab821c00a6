/**
 * A hand-made account snapshot with what the sandbox's data lacks: titles with commas, quotes, newlines and
 * non-Latin script, MAL-sourced anime, ISBNs, ratings at both ends of the scale, a film watched just before
 * midnight UTC, and an entry from an "independent server" using other field names and UUID ids.
 */
import type { AccountSnapshot } from '../../src/convert/index.js';

export const TRICKY_TITLE = 'Love, "Death" &\nRobots';

function entry(id: string, work: Record<string, unknown>, rest: Record<string, unknown>): Record<string, unknown> {
  return { id, work: { id: `w-${id}`, ...work }, status: 'PLANNED', phase: 'PLANNED', rating: null, notes: null, dates: {}, progress: null, ...rest };
}

export function fixture(): AccountSnapshot {
  const entries = [
    // A film seen twice (cycle 2 is a rewatch), rated the top of a 10-point scale, reviewed.
    entry(
      'e1',
      { source: 'tmdb', sourceId: '550', type: 'film', domain: 'MEDIA', title: TRICKY_TITLE, year: 1999 },
      {
        status: 'COMPLETED',
        phase: 'DONE',
        rating: 10,
        dates: {
          added: '2025-01-01T10:00:00.000Z',
          started: '2025-01-02T23:30:00.000Z',
          finished: '2025-03-01T12:00:00.000Z',
          updated: '2025-03-01T12:00:00.000Z',
        },
      },
    ),
    // A film from another catalogue, watched undated only, rated the bottom of the scale.
    entry(
      'e2',
      { source: 'imdb', sourceId: 'tt0047478', type: 'film', title: '七人の侍', year: 1954 },
      { status: 'COMPLETED', phase: 'DONE', rating: 1 },
    ),
    // Rated, never watched, no events.
    entry(
      'e3',
      { source: 'tmdb', sourceId: '603', type: 'film', title: 'The Matrix', releaseDate: '1999-03-31' },
      { status: 'DROPPED', phase: 'DROPPED', rating: 6 },
    ),
    // A planned film.
    entry('e4', { source: 'tmdb', sourceId: '13', type: 'film', title: 'Forrest Gump', year: 1994 }, {}),
    // A book with ISBNs, two authors, read twice.
    entry(
      'e5',
      {
        source: 'openlibrary',
        sourceId: 'OL1M',
        type: 'book',
        title: 'Tess, "of the" d’Urbervilles',
        authors: ['Thomas Hardy', 'Ann Editor'],
        isbn13: '978-0141439594',
        isbn10: '0141439599',
        pages: 592,
        year: 1891,
      },
      {
        status: 'READ',
        phase: 'DONE',
        rating: 7,
        notes: 'private, "notes"',
        dates: { added: '2024-12-31T23:30:00.000Z', finished: '2025-02-10T09:00:00.000Z' },
      },
    ),
    // A book on an independent server: title under name, author as a string, UUID id, no phase.
    {
      id: '6f1c2b9e-3d6a-4f3e-9c61-1b1e8f0a7c11',
      work: {
        id: '0b5e8f2a-1111-4222-8333-944445555666',
        source: 'isbn',
        sourceId: '9780306406157',
        name: 'Плоский мир',
        author: 'Терри Пратчетт',
        releaseDate: '1983-11-24',
      },
      status: 'READING',
      rating: null,
      dates: { addedAt: null },
    },
    // Anime from MyAnimeList, caught up while airing.
    entry(
      'e7',
      { source: 'mal', sourceId: '5114', type: 'anime', title: 'Fullmetal ]]> Alchemist\u0007', episodes: 64 },
      {
        status: 'UP_TO_DATE',
        phase: 'DONE',
        rating: 9,
        notes: 'A & B < C',
        progress: { episodes: 30, total: 64 },
        dates: { started: '2025-04-01T08:00:00.000Z' },
      },
    ),
    // Anime from AniList: no MAL id.
    entry(
      'e8',
      { source: 'anilist', sourceId: '21', type: 'anime', title: 'ONE PIECE', episodes: 1100 },
      { status: 'WATCHING', phase: 'IN_PROGRESS', progress: { episodes: 12, total: 1100 } },
    ),
    // A game with playtime, and an album.
    entry(
      'e9',
      { source: 'igdb', sourceId: '1942', type: 'game', title: 'The Witcher 3' },
      { status: 'PLAYING', phase: 'IN_PROGRESS', rating: 8, progress: { minutes: 125 } },
    ),
    entry(
      'e10',
      { source: 'musicbrainz', sourceId: 'b1a9c0e9-d987-4042-ae91-78d6a3267d69', type: 'album', title: 'Abbey Road' },
      { status: 'LISTENED', phase: 'DONE', rating: 10 },
    ),
  ];
  const history = [
    // Newest first, as the API sends them; events carry workId, as the sandbox's export does.
    { id: 'e1-2', entryId: 'e1', workId: 'w-e1', kind: 'FILM_SEEN', date: '2025-03-01T12:00:00.000Z', cycle: 2 },
    { id: 'e1-1', entryId: 'e1', workId: 'w-e1', kind: 'FILM_SEEN', date: '2025-01-02T23:30:00.000Z', cycle: 1 },
    { id: 'e5-4', entryId: 'e5', kind: 'BOOK_FINISHED', date: '2025-02-10T09:00:00.000Z', cycle: 2 },
    { id: 'e5-2', entryId: 'e5', kind: 'BOOK_FINISHED', date: null, cycle: 1 },
    { id: 'e2-1', entryId: 'e2', kind: 'FILM_SEEN', date: null, cycle: 1 },
    { id: 'e2-2', entryId: 'e2', kind: 'FILM_SEEN', date: null, cycle: 2 },
    // Links to nothing.
    { id: 'x-1', entryId: 'gone', kind: 'FILM_SEEN', date: '2025-01-01T00:00:00.000Z', cycle: 1 },
  ];
  const reviews = [
    { id: 'r1', entryId: 'e1', title: 'Rules', body: 'First rule:\n"don\'t", talk.', spoiler: true, createdAt: '2025-03-02T00:00:00.000Z' },
    { id: 'r2', entryId: 'e5', body: 'Sad, but <great>.', spoiler: false, createdAt: '2025-02-11T00:00:00.000Z' },
  ];
  return { entries, history, reviews };
}
