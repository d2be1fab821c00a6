/**
 * The shared work catalogue. Work i is a pure function of (seed, data day, i), so a work has the same id for
 * every account, and catalogues of any size are built on demand. The first works are hand-written showcases with
 * awkward values (accents, CJK, emoji, a very long title, commas and quotes) that every client should survive.
 */
import { toBase62 } from './keys.js';
import { ADJECTIVES, FIRST_NAMES, GAME_SUBTITLES, GAME_WORDS, LAST_NAMES, NOUNS, ORIGINAL_TITLES, PLATFORMS, ROMAJI } from './vocab.js';
import { APP_URL, DOMAIN_OF_TYPE, SOURCE_OF_TYPE, WEEK_MS, HOUR_MS, type Lang, type WorkRecord, type WorkType } from './model.js';
import { Rng, hash32 } from './rng.js';

/** A bijection on 32-bit integers, keyed by the seed: distinct inputs give distinct opaque ids. */
export function permute32(value: number, seed: number): number {
  let x = (value ^ hash32(seed, 'permute')) >>> 0;
  x = Math.imul(x, 0x9e3779b1) >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b) >>> 0;
  x ^= x >>> 13;
  return x >>> 0;
}

interface Showcase {
  type: WorkType;
  titles: WorkRecord['titles'];
  originalTitle?: string;
  year: number;
  airing?: boolean;
  extra?: Partial<WorkRecord>;
}

/** Indices 0..SHOWCASE.length-1 of the catalogue. The demo account's first entries use them (see data.ts). */
export const SHOWCASE: readonly Showcase[] = [
  {
    type: 'film',
    titles: { en: 'Amélie', fr: "Le Fabuleux Destin d'Amélie Poulain", it: 'Il favoloso mondo di Amélie' },
    originalTitle: "Le Fabuleux Destin d'Amélie Poulain",
    year: 2001,
    extra: { runtimeMinutes: 122 },
  },
  {
    type: 'film',
    titles: { en: 'Tokyo Story', fr: 'Voyage à Tokyo', it: 'Viaggio a Tokyo' },
    originalTitle: '東京物語',
    year: 1953,
    extra: { runtimeMinutes: 136 },
  },
  // Never opened in fr or it: stays English in every lang.
  { type: 'series', titles: { en: 'The Night Shift Office' }, year: 2009, airing: false, extra: { seasons: 4, episodesPerSeason: 10 } },
  {
    type: 'anime',
    titles: { en: 'Sousou no Frieren' },
    originalTitle: '葬送のフリーレン',
    year: 2023,
    airing: true,
    extra: { seasons: 2, episodesPerSeason: 12 },
  },
  { type: 'game', titles: { en: '🎮 Pixel Quest: Ünïcode Edition' }, year: 2021, extra: { platforms: ['PC', 'Nintendo Switch'] } },
  {
    type: 'book',
    titles: {
      en: 'The Remarkably Long and Winding Chronicle of an Unexpectedly Eventful Journey Across Seven Kingdoms, Three Oceans and One Very Small Village',
    },
    year: 1998,
    extra: { authors: ['Émile Moreau', "Aoife O'Brien"], pages: 1184 },
  },
  { type: 'album', titles: { en: 'Songs for "Later", Vol. 2' }, year: 2016, extra: { artist: 'Café Tacuba, & Friends', tracks: 14 } },
  // Followed but dropped, still airing: its episodes must never reach the calendar.
  {
    type: 'series',
    titles: { en: 'Endless Corridors', fr: 'Couloirs sans fin' },
    year: 2022,
    airing: true,
    extra: { seasons: 3, episodesPerSeason: 10 },
  },
  {
    type: 'series',
    titles: { en: 'Harbour Lights', fr: 'Lumières du port', it: 'Luci del porto' },
    year: 2024,
    airing: true,
    extra: { seasons: 2, episodesPerSeason: 8 },
  },
  { type: 'film', titles: { en: 'Night Train to Lisbon', fr: 'Train de nuit pour Lisbonne' }, year: 2013, extra: { runtimeMinutes: 111 } },
  {
    type: 'series',
    titles: { en: 'Kitchen Confidential', it: 'Cucina segreta' },
    year: 2025,
    airing: true,
    extra: { seasons: 1, episodesPerSeason: 12 },
  },
  {
    type: 'anime',
    titles: { en: 'Tokyo no Yoru' },
    originalTitle: '東京の夜',
    year: 2025,
    airing: true,
    extra: { seasons: 1, episodesPerSeason: 24 },
  },
];

const TYPE_WEIGHTS: Record<WorkType, number> = { film: 30, series: 14, anime: 8, game: 17, book: 18, album: 13 };

export class Catalogue {
  private readonly works: WorkRecord[] = [];

  /** @param dataDay start of the UTC day the data is anchored to (ms) */
  constructor(
    readonly seed: number,
    readonly dataDay: number,
  ) {}

  work(index: number): WorkRecord {
    let work = this.works[index];
    if (!work) {
      work = this.build(index);
      this.works[index] = work;
    }
    return work;
  }

  /** Type of work `index` without building it (used to skip domains an account has disabled). */
  typeOf(index: number): WorkType {
    const showcase = SHOWCASE[index];
    if (showcase) return showcase.type;
    return Rng.derive(this.seed, 'work-type', index).weighted(TYPE_WEIGHTS);
  }

  private build(index: number): WorkRecord {
    const rng = Rng.derive(this.seed, 'work', index);
    const type = this.typeOf(index);
    const id = 'w' + toBase62(permute32(index, hash32(this.seed, 'work-id')), 6);
    const showcase = SHOWCASE[index];
    const work: WorkRecord = {
      index,
      id,
      source: SOURCE_OF_TYPE[type],
      sourceId: sourceId(type, rng),
      type,
      domain: DOMAIN_OF_TYPE[type],
      titles: showcase ? showcase.titles : generatedTitles(type, rng),
      year: showcase ? showcase.year : rng.int(type === 'anime' ? 1985 : 1950, new Date(this.dataDay).getUTCFullYear()),
    };
    if (showcase?.originalTitle) work.originalTitle = showcase.originalTitle;
    switch (type) {
      case 'film':
        work.runtimeMinutes = rng.int(78, 178);
        if (!showcase && rng.chance(0.15)) work.originalTitle = rng.pick(ORIGINAL_TITLES);
        break;
      case 'series':
      case 'anime': {
        work.seasons = rng.int(1, type === 'anime' ? 2 : 4);
        work.episodesPerSeason = type === 'anime' ? rng.pick([12, 13]) : rng.int(6, 10);
        work.runtimeMinutes = type === 'anime' ? 24 : rng.pick([22, 30, 45, 50, 60]);
        work.airing = rng.chance(0.35);
        if (type === 'anime' && !showcase) work.originalTitle = animeOriginal(work.titles.en);
        break;
      }
      case 'game':
        work.platforms = [...new Set([rng.pick(PLATFORMS), rng.pick(PLATFORMS)])];
        break;
      case 'book':
        work.authors = [personName(rng)];
        if (rng.chance(0.1)) work.authors.push(personName(rng));
        work.pages = rng.int(96, 900);
        break;
      case 'album':
        work.artist = rng.chance(0.5) ? personName(rng) : `The ${rng.pick(NOUNS)[0]}s`;
        work.tracks = rng.int(6, 18);
        break;
    }
    if (showcase?.extra) Object.assign(work, showcase.extra);
    if (showcase?.airing !== undefined) work.airing = showcase.airing;
    if (work.seasons !== undefined) {
      const perSeason = work.episodesPerSeason!;
      work.episodes = work.seasons * perSeason;
      if (work.airing) {
        // The last season airs weekly; as of the data day `weeks` of its episodes are out, and at least one is to
        // come. The draw is the one the generator always made (so the rest of the data stays the seed's), folded into
        // the season: it once ran past the season, airing episodes beyond the work's own count.
        const draw = rng.int(1, Math.min(20, perSeason + 8));
        const weeks = 1 + ((draw - 1) % (perSeason - 1));
        work.seasonStartMs = this.dataDay - weeks * WEEK_MS + rng.int(1, 23) * HOUR_MS;
        work.airedAtDataDay = (work.seasons - 1) * perSeason + weeks;
      }
    }
    return work;
  }
}

/** Episodes of a show aired at `ms` (all seasons): an airing one's last season airs weekly, up to the work's count. */
export function airedEpisodes(work: WorkRecord, ms: number): number {
  if (!work.airing || work.seasonStartMs === undefined) return work.episodes ?? 0;
  const inSeason = ms < work.seasonStartMs ? 0 : Math.floor((ms - work.seasonStartMs) / WEEK_MS) + 1;
  return Math.min(work.episodes!, (work.seasons! - 1) * work.episodesPerSeason! + inSeason);
}

/** Season and episode number of the n-th episode (1-based, across seasons). */
export function episodeNumber(work: WorkRecord, n: number): { season: number; episode: number } {
  const perSeason = work.episodesPerSeason ?? 1;
  const seasons = work.seasons ?? 1;
  const season = Math.min(seasons, Math.floor((n - 1) / perSeason) + 1);
  return { season, episode: n - (season - 1) * perSeason };
}

/** docs/api.md, Endpoints, rule 3: film and series titles follow lang (falling back to English); everything else has one title. */
export function workTitle(work: WorkRecord, lang: Lang): string {
  if (work.type === 'film' || work.type === 'series') return work.titles[lang] ?? work.titles.en;
  return work.titles.en;
}

/** Whether the title exists in `lang` (episode titles follow the show). */
export function hasLang(work: WorkRecord, lang: Lang): boolean {
  return (work.type === 'film' || work.type === 'series') && work.titles[lang] !== undefined;
}

export function renderWork(work: WorkRecord, lang: Lang): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: work.id,
    source: work.source,
    sourceId: work.sourceId,
    url: `${APP_URL}/works/${work.id}`,
    type: work.type,
    domain: work.domain,
    title: workTitle(work, lang),
  };
  if (work.originalTitle !== undefined) out.originalTitle = work.originalTitle;
  out.year = work.year;
  switch (work.type) {
    case 'film':
      out.runtimeMinutes = work.runtimeMinutes;
      break;
    case 'series':
    case 'anime':
      out.seasons = work.seasons;
      out.episodes = work.episodes;
      out.episodeRuntimeMinutes = work.runtimeMinutes;
      out.airing = work.airing;
      break;
    case 'game':
      out.platforms = work.platforms;
      break;
    case 'book':
      out.authors = work.authors;
      out.pages = work.pages;
      break;
    case 'album':
      out.artist = work.artist;
      out.tracks = work.tracks;
      break;
  }
  return out;
}

function sourceId(type: WorkType, rng: Rng): string {
  switch (type) {
    case 'film':
    case 'series':
      return String(rng.int(10, 1_200_000));
    case 'anime':
      return String(rng.int(1, 180_000));
    case 'game':
      return String(rng.int(1, 300_000));
    case 'book':
      return `OL${rng.int(10_000, 40_000_000)}W`;
    case 'album': {
      // A UUID-shaped MusicBrainz id (version 4, variant 10xx).
      const hex = (digits: number) =>
        Math.floor(rng.next() * 16 ** digits)
          .toString(16)
          .padStart(digits, '0');
      return `${hex(8)}-${hex(4)}-4${hex(3)}-${(8 + rng.int(0, 3)).toString(16)}${hex(3)}-${hex(6)}${hex(6)}`;
    }
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function personName(rng: Rng): string {
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
}

function generatedTitles(type: WorkType, rng: Rng): WorkRecord['titles'] {
  const noun = rng.pick(NOUNS);
  const other = rng.pick(NOUNS);
  const adjective = rng.pick(ADJECTIVES);
  switch (type) {
    case 'film':
    case 'series': {
      const shape = rng.int(0, 3);
      const titles: [string, string, string] =
        shape === 0
          ? [`The ${adjective[0]} ${noun[0]}`, `${noun[1]} ${adjective[1]}`, `${noun[2]} ${adjective[2]}`]
          : shape === 1
            ? [`${noun[0]} of the ${other[0]}`, `${noun[1]} de ${other[1]}`, `${noun[2]} di ${other[2]}`]
            : shape === 2
              ? [`${adjective[0]} ${noun[0]}`, `${capitalise(adjective[1])} ${noun[1]}`, `${noun[2]} ${adjective[2]}`]
              : [`The ${noun[0]}`, noun[1], noun[2]];
      const sequel = rng.chance(0.08) ? ` ${rng.int(2, 4)}` : '';
      const result: WorkRecord['titles'] = { en: titles[0] + sequel };
      // Some works were never opened in fr or it: they stay English there (docs/api.md, Endpoints, rule 3).
      if (rng.chance(0.6)) result.fr = titles[1] + sequel;
      if (rng.chance(0.45)) result.it = titles[2] + sequel;
      return result;
    }
    case 'anime': {
      const a = rng.pick(ROMAJI);
      const b = rng.pick(ROMAJI);
      return { en: `${a[0]} no ${b[0]}${rng.chance(0.2) ? ` ${rng.pick(['Zero', 'Next', 'Kai', 'Final'])}` : ''}` };
    }
    case 'game':
      return { en: `${noun[0]} ${rng.pick(GAME_WORDS)}${rng.chance(0.2) ? `: ${rng.pick(GAME_SUBTITLES)}` : ''}` };
    case 'book':
      return { en: rng.chance(0.5) ? `The ${noun[0]} of ${rng.pick(FIRST_NAMES)}` : `${adjective[0]} ${noun[0]}s` };
    case 'album':
      return { en: rng.chance(0.5) ? `${adjective[0]} ${noun[0]}` : `${noun[0]}s & ${other[0]}s` };
  }
}

function animeOriginal(romaji: string): string {
  const words = romaji.split(' ');
  const kanji = (word: string | undefined) => ROMAJI.find(([r]) => r === word)?.[1] ?? word ?? '';
  return `${kanji(words[0])}の${kanji(words[2])}${words[3] ? ` ${words[3]}` : ''}`;
}
