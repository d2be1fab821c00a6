/**
 * MyAnimeList's XML export format (myanimelist.net/import.php, "MyAnimeList Import"), which AniList and Kitsu import
 * too: `<myanimelist>`, one `<myinfo>`, one `<anime>` per entry. The id is written only when the work comes from
 * MyAnimeList (or names its MAL id); otherwise series_animedb_id is 0 and the row carries the title alone, which
 * importers matching on the id report as not found: the summary says how many.
 */
import { fraction, localDate, plural, type ConvertOptions, type ScaleChoice, type Tally } from './common.js';
import { cycles, lastActivity, reviewText, type Entry } from './model.js';
import { cdata, escapeXml } from './xml.js';

/** MAL's list statuses. UP_TO_DATE (caught up, still airing) is Watching there: MAL refuses Completed for an airing show. */
function malStatus(entry: Entry): string {
  if (entry.status === 'UP_TO_DATE') return 'Watching';
  return { PLANNED: 'Plan to Watch', IN_PROGRESS: 'Watching', DONE: 'Completed', DROPPED: 'Dropped' }[entry.phase ?? 'PLANNED'];
}

/** 1–10 whole points; 0 is "not scored" in MAL's format. */
export function malScore(rating: number, scale: ScaleChoice): number {
  return Math.max(1, Math.round(fraction(rating, scale) * 10));
}

function malDate(ms: number | undefined, timeZone: string | undefined): string {
  return ms === undefined ? '0000-00-00' : localDate(ms, timeZone);
}

function isAnime(entry: Entry): boolean {
  return entry.work.type === 'anime';
}

export function mal(entries: Entry[], scale: ScaleChoice | undefined, options: ConvertOptions, tally: Tally): string[] {
  tally.leaveOut('entries that are not anime (the MAL file holds anime)', entries.filter((entry) => !isAnime(entry)).length);
  const anime: string[] = [];
  let reviews = 0;
  let withoutId = 0;
  const totals = { Watching: 0, Completed: 0, 'On-Hold': 0, Dropped: 0, 'Plan to Watch': 0 } as Record<string, number>;
  for (const entry of entries.filter(isAnime)) {
    const { work } = entry;
    if (options.since !== undefined && (lastActivity(entry) ?? Number.NEGATIVE_INFINITY) < options.since) {
      tally.leaveOut('anime with no activity since --since');
      continue;
    }
    if (work.malId === undefined && work.title === undefined) {
      tally.skip('anime with neither a MyAnimeList id nor a title');
      continue;
    }
    if (work.malId === undefined) withoutId += 1;
    const status = malStatus(entry);
    totals[status] = (totals[status] ?? 0) + 1;
    const total = entry.progress.total ?? work.episodes;
    const comments = entry.notes ?? '';
    const review = reviewText(entry);
    if (review !== undefined) reviews += 1;
    const fields: [string, string][] = [
      ['series_animedb_id', work.malId ?? '0'],
      ['series_title', cdata(work.title ?? '')],
      ['series_type', total !== undefined && total > 1 ? 'TV' : 'Unknown'],
      ['series_episodes', String(total ?? 0)],
      ['my_id', '0'],
      ['my_watched_episodes', String(entry.progress.episodes ?? 0)],
      ['my_start_date', malDate(entry.started, options.timeZone)],
      ['my_finish_date', malDate(entry.phase === 'DONE' ? entry.finished : undefined, options.timeZone)],
      ['my_rated', ''],
      ['my_score', String(entry.rating !== undefined && scale ? malScore(entry.rating, scale) : 0)],
      ['my_storage', ''],
      ['my_storage_value', '0.00'],
      ['my_status', escapeXml(status)],
      ['my_comments', cdata(comments)],
      ['my_times_watched', String(Math.max(0, cycles(entry) - 1))],
      ['my_rewatch_value', ''],
      ['my_priority', 'LOW'],
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
  if (withoutId > 0) {
    tally.note(
      `${plural(withoutId, 'anime', 'anime')} without a MyAnimeList id (their source is another catalogue): written by title with series_animedb_id 0; MAL's importer matches on the id and will list them as not found`,
    );
  }
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
