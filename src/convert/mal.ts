/**
 * MyAnimeList's XML export format (myanimelist.net/import.php, "MyAnimeList Import"), which AniList and Kitsu import
 * too. Checked against the community's MyAnimeList XML specification (unofficial, CC-BY-4.0) and MAL's own exports,
 * November 2026: `<?xml version="1.0" encoding="UTF-8" ?>`, `<myanimelist>`, one `<myinfo>` (user_export_type 1 =
 * anime, the totals per status), then one `<anime>` per entry with these tags, in this order:
 *   series_animedb_id   the MyAnimeList id: importers match on it alone (MAL's own; the third-party MAL-XML
 *                       importers read for this contract skip a row whose id is 0); a row it cannot match is listed
 *                       as not found, never imported
 *   series_title        CDATA; series_type: TV | OVA | Movie | Special | ONA | Music | TV Special | CM | PV | Unknown
 *   series_episodes     the work's episode count (0 unknown); my_id 0 (legacy)
 *   my_watched_episodes, my_start_date, my_finish_date (YYYY-MM-DD, 0000-00-00 unknown), my_rated (empty)
 *   my_score            0–10 whole points, 0 = not scored; my_storage (empty), my_storage_value 0.00
 *   my_status           Watching | Completed | On-Hold | Dropped | Plan to Watch
 *   my_comments         CDATA; my_times_watched: rewatches (cycles − 1); my_rewatch_value (empty)
 *   my_priority         Low | Medium | High; my_tags CDATA; my_rewatching, my_rewatching_ep 0; my_discuss 1
 *   my_sns              default | allow | ask_every_time | deny; update_on_import 0 | 1
 * An anime without a MyAnimeList id (its source is another catalogue) cannot be matched: it goes to the unmatched
 * file, never into the XML as id 0.
 */
import { fraction, listPhase, localDate, plural, type ConvertOptions, type ScaleChoice, type Tally } from './common.js';
import { cycles, lastActivity, reviewText, type Entry } from './model.js';
import { cdata, escapeXml } from './xml.js';

/** MAL's list statuses, from the phase shared with Yamtrack (a caught-up airing show is Watching). */
function malStatus(entry: Entry): string {
  return { PLANNED: 'Plan to Watch', IN_PROGRESS: 'Watching', DONE: 'Completed', DROPPED: 'Dropped' }[listPhase(entry) ?? 'PLANNED'];
}

/** The server's own release format in MAL's words (AniList's and Kitsu's names too); anything else is Unknown. */
const SERIES_TYPE: Record<string, string> = {
  TV: 'TV',
  TV_SHORT: 'TV',
  MOVIE: 'Movie',
  OVA: 'OVA',
  ONA: 'ONA',
  SPECIAL: 'Special',
  TV_SPECIAL: 'TV Special',
  'TV SPECIAL': 'TV Special',
  MUSIC: 'Music',
  CM: 'CM',
  PV: 'PV',
};

export function malSeriesType(format: string | undefined): string {
  return SERIES_TYPE[format ?? ''] ?? 'Unknown';
}

/** 1–10 whole points; 0 is "not scored" in MAL's format. */
export function malScore(rating: number, scale: ScaleChoice): number {
  return Math.max(1, Math.round(fraction(rating, scale) * 10));
}

function malDate(ms: number | undefined, timeZone: string | undefined): string {
  return ms === undefined ? '0000-00-00' : localDate(ms, timeZone);
}

const UNMATCHED = 'anime without a MyAnimeList id (from another catalogue): MAL matches on the id alone';

function isAnime(entry: Entry): boolean {
  return entry.work.type === 'anime';
}

export function mal(entries: Entry[], scale: ScaleChoice | undefined, options: ConvertOptions, tally: Tally): string[] {
  tally.leaveOut('entries that are not anime (the MAL file holds anime)', entries.filter((entry) => !isAnime(entry)).length);
  const anime: string[] = [];
  let reviews = 0;
  const totals = { Watching: 0, Completed: 0, 'On-Hold': 0, Dropped: 0, 'Plan to Watch': 0 } as Record<string, number>;
  for (const entry of entries.filter(isAnime)) {
    const { work } = entry;
    if (options.since !== undefined && (lastActivity(entry) ?? Number.NEGATIVE_INFINITY) < options.since) {
      tally.leaveOut('anime with no activity since --since');
      continue;
    }
    const status = malStatus(entry);
    if (work.malId === undefined) {
      tally.setAsideRow(UNMATCHED, {
        series_title: work.title,
        series_type: malSeriesType(work.format),
        series_episodes: entry.progress.total ?? work.episodes,
        my_watched_episodes: entry.progress.episodes ?? 0,
        my_start_date: malDate(entry.started, options.timeZone),
        my_finish_date: malDate(listPhase(entry) === 'DONE' ? entry.finished : undefined, options.timeZone),
        my_score: entry.rating !== undefined && scale ? malScore(entry.rating, scale) : 0,
        my_status: status,
        my_comments: entry.notes,
        my_times_watched: Math.max(0, cycles(entry) - 1),
      });
      continue;
    }
    totals[status] = (totals[status] ?? 0) + 1;
    const total = entry.progress.total ?? work.episodes;
    const comments = entry.notes ?? '';
    const review = reviewText(entry);
    if (review !== undefined) reviews += 1;
    const fields: [string, string][] = [
      ['series_animedb_id', work.malId],
      ['series_title', cdata(work.title ?? '')],
      ['series_type', malSeriesType(work.format)],
      ['series_episodes', String(total ?? 0)],
      ['my_id', '0'],
      ['my_watched_episodes', String(entry.progress.episodes ?? 0)],
      ['my_start_date', malDate(entry.started, options.timeZone)],
      ['my_finish_date', malDate(listPhase(entry) === 'DONE' ? entry.finished : undefined, options.timeZone)],
      ['my_rated', ''],
      ['my_score', String(entry.rating !== undefined && scale ? malScore(entry.rating, scale) : 0)],
      ['my_storage', ''],
      ['my_storage_value', '0.00'],
      ['my_status', escapeXml(status)],
      ['my_comments', cdata(comments)],
      ['my_times_watched', String(Math.max(0, cycles(entry) - 1))],
      ['my_rewatch_value', ''],
      ['my_priority', 'Low'],
      ['my_tags', cdata('')],
      ['my_rewatching', '0'],
      ['my_rewatching_ep', '0'],
      ['my_discuss', '1'],
      ['my_sns', 'default'],
      ['update_on_import', '1'],
    ];
    anime.push(`\t<anime>\n${fields.map(([name, value]) => `\t\t<${name}>${value}</${name}>\n`).join('')}\t</anime>\n`);
    tally.write(`anime (${status})`);
  }
  const myinfo = [
    ['user_id', '0'],
    ['user_name', escapeXml(options.account ?? '')],
    ['user_export_type', '1'],
    ['user_total_anime', String(anime.length)],
    ['user_total_watching', String(totals.Watching)],
    ['user_total_completed', String(totals.Completed)],
    ['user_total_onhold', String(totals['On-Hold'])],
    ['user_total_dropped', String(totals.Dropped)],
    ['user_total_plantowatch', String(totals['Plan to Watch'])],
  ];
  if (reviews > 0) tally.skip("reviews of anime (MAL's list import carries no reviews)", reviews);
  if (anime.length > 0)
    tally.note(`${plural(anime.length, 'anime', 'anime')} with update_on_import 1: importing overwrites what the list already holds for them`);
  const xml =
    '<?xml version="1.0" encoding="UTF-8" ?>\n<myanimelist>\n\t<myinfo>\n' +
    myinfo.map(([name, value]) => `\t\t<${name}>${value}</${name}>\n`).join('') +
    '\t</myinfo>\n' +
    anime.join('') +
    '</myanimelist>\n';
  return [xml];
}
