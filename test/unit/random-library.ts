/**
 * Random account snapshots from a seed (mulberry32): every work type and catalogue, every status, ratings from 0 to
 * the scale's top or none, dated and undated events over several cycles, awkward text, and half of the entries in
 * the shape of an independent server (UUID ids, mediaType, addedAt, progress {current, unit}, events with `type`).
 */
import type { AccountSnapshot } from '../../src/convert/index.js';

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TEXTS = ['Plain', 'Comma, "quotes"\nand a newline', 'Ünïcode — 東京', 'A & B < C ]]> D', "l'apostrophe", '  spaced  '];
const STATUSES: Record<string, string[]> = {
  film: ['PLANNED', 'COMPLETED', 'DROPPED'],
  series: ['PLANNED', 'WATCHING', 'UP_TO_DATE', 'COMPLETED', 'DROPPED'],
  anime: ['PLANNED', 'WATCHING', 'UP_TO_DATE', 'COMPLETED', 'DROPPED'],
  game: ['BACKLOG', 'PLAYING', 'COMPLETED', 'DROPPED'],
  book: ['TO_READ', 'READING', 'READ', 'DROPPED'],
  album: ['TO_LISTEN', 'LISTENED'],
};
const SOURCES: Record<string, [string, (n: number) => string][]> = {
  film: [
    ['tmdb', String],
    ['imdb', (n) => `tt${n}`],
    ['kinopoisk', String],
  ],
  series: [
    ['tmdb', String],
    ['tvdb', String],
  ],
  anime: [
    ['anilist', String],
    ['mal', String],
    ['kitsu', String],
  ],
  game: [
    ['igdb', String],
    ['steam', String],
  ],
  book: [
    ['openlibrary', (n) => `OL${n}W`],
    ['openlibrary', (n) => `OL${n}M`],
    ['isbn', (n) => `978${String(n).padStart(10, '0')}`],
  ],
  album: [['musicbrainz', (n) => `mb-${n}`]],
};
const KIND: Record<string, string> = {
  film: 'FILM_SEEN',
  series: 'EPISODE_SEEN',
  anime: 'EPISODE_SEEN',
  game: 'GAME_SESSION',
  book: 'BOOK_FINISHED',
  album: 'ALBUM_FINISHED',
};
const FORMATS = ['TV', 'MOVIE', 'OVA', 'ONA', 'SPECIAL', 'TV_SHORT', 'MUSIC', 'nonsense', undefined];

export function randomLibrary(seed: number, size = 30): AccountSnapshot {
  const random = mulberry32(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const maybe = <T>(value: T, p = 0.5): T | undefined => (random() < p ? value : undefined);
  const scale = pick([5, 10, 100]);
  const day = () => new Date(Date.UTC(2020, 0, 1) + Math.floor(random() * 6 * 365 * 86_400_000)).toISOString();
  const entries: Record<string, unknown>[] = [];
  const history: Record<string, unknown>[] = [];
  const reviews: Record<string, unknown>[] = [];
  for (let n = 0; n < size; n += 1) {
    const alt = random() < 0.5;
    const type = pick(Object.keys(STATUSES));
    const [source, id] = pick(SOURCES[type]!);
    const entryId = alt ? `${n.toString(16).padStart(8, '0')}-1111-4222-8333-${seed.toString(16).padStart(12, '0').slice(-12)}` : `e${n}`;
    const status = pick(STATUSES[type]!);
    const title = maybe(`${pick(TEXTS)} ${n}`, 0.95);
    const work: Record<string, unknown> = {
      id: `w-${entryId}`,
      source,
      sourceId: id(100 + n),
      [alt ? 'mediaType' : 'type']: type,
      [alt ? 'name' : 'title']: title,
      year: maybe(1950 + Math.floor(random() * 75)),
      authors: type === 'book' ? maybe([pick(['Terry Pratchett', 'Ursula K. Le Guin', 'Plato'])]) : undefined,
      isbn13: type === 'book' ? maybe(`978${String(n).padStart(10, '1')}`, 0.3) : undefined,
      episodes: maybe(Math.floor(random() * 50) + 1),
      format: type === 'anime' ? pick(FORMATS) : undefined,
    };
    const rating = random() < 0.3 ? null : Math.round(random() * scale);
    const progress = { episodes: Math.floor(random() * 20), pages: Math.floor(random() * 400), minutes: Math.floor(random() * 3000) };
    const unit = type === 'game' ? 'minutes' : type === 'book' ? 'pages' : 'episodes';
    const dates = { added: maybe(day(), 0.8), started: maybe(day()), finished: maybe(day()), updated: maybe(day()) };
    entries.push({
      id: entryId,
      work,
      status,
      rating: n === 0 ? scale : rating,
      notes: maybe(pick(TEXTS)),
      ...(alt ? { addedAt: dates.added ?? null, finishedAt: dates.finished ?? null } : { dates }),
      progress: alt ? { current: progress[unit], total: maybe(400), unit } : { ...progress, total: maybe(400) },
    });
    const cycles = 1 + Math.floor(random() * 3);
    for (let cycle = 1; cycle <= cycles; cycle += 1) {
      for (let event = 0; event < Math.floor(random() * 4); event += 1) {
        history.push({
          entryId,
          [alt ? 'type' : 'kind']: KIND[type],
          date: random() < 0.2 ? null : day(),
          cycle,
          season: maybe(1 + Math.floor(random() * 3), 0.9),
          episode: 1 + Math.floor(random() * 12),
        });
      }
    }
    if (random() < 0.3) reviews.push({ entryId, [alt ? 'headline' : 'title']: maybe(pick(TEXTS)), body: pick(TEXTS), spoiler: random() < 0.5 });
  }
  return { entries, history, reviews };
}
