/**
 * GET /v1/calendar (docs/api.md, Endpoints, rule 5): episodes of followed shows airing from the start of today (UTC) up to 90
 * days after now, soonest first, at most 60. A show is followed when it is an airing series or anime in the
 * library; dropped ones are left out. Computed at request time from each show's weekly schedule and the clock.
 */
import { airedEpisodes, renderWork } from './catalogue.js';
import type { AccountData } from './data.js';
import { APP_URL, DAY_MS, WEEK_MS, iso, startOfUtcDay, type Domain, type EntryRecord, type Lang } from './model.js';
import { episodeTitle, type Json } from './render.js';

export const CALENDAR_HORIZON_DAYS = 90;
export const CALENDAR_MAX_ITEMS = 60;

/** Airing series and anime of the library that are not dropped. */
export function followedShows(account: AccountData): EntryRecord[] {
  return account.cached('followed', () => account.entries.filter((entry) => entry.work.airing === true && entry.status !== 'DROPPED'));
}

export function calendarItems(account: AccountData, now: number, lang: Lang, domain: Domain | undefined): Json[] {
  if (domain !== undefined && domain !== 'MEDIA') return [];
  if (!account.hasDomain('MEDIA')) return [];
  const from = startOfUtcDay(now);
  const until = now + CALENDAR_HORIZON_DAYS * DAY_MS;
  const upcoming: Array<{ airsAt: number; entry: EntryRecord; episode: number; id: string }> = [];
  for (const entry of followedShows(account)) {
    const work = entry.work;
    const seasonStart = work.seasonStartMs!;
    // First episode of the current season airing at or after `from`.
    let k = Math.max(1, Math.ceil((from - seasonStart) / WEEK_MS) + 1);
    // The season ends with its last episode: none past the work's count.
    for (let airsAt = seasonStart + (k - 1) * WEEK_MS; airsAt <= until && k <= work.episodesPerSeason!; k += 1, airsAt += WEEK_MS) {
      upcoming.push({ airsAt, entry, episode: k, id: `${work.id}-s${work.seasons}e${k}` });
    }
  }
  upcoming.sort((a, b) => a.airsAt - b.airsAt || (a.id < b.id ? -1 : 1));
  return upcoming.slice(0, CALENDAR_MAX_ITEMS).map(({ airsAt, entry, episode, id }) => {
    const work = entry.work;
    const watched = entry.progress && 'episodes' in entry.progress ? entry.progress.episodes : 0;
    return {
      id,
      show: renderWork(work, lang),
      entryId: entry.id,
      season: work.seasons,
      episode,
      title: episodeTitle(work, work.seasons!, episode, lang),
      airsAt: iso(airsAt),
      episodesBehind: Math.max(0, airedEpisodes(work, now) - watched),
      url: `${APP_URL}/works/${work.id}/seasons/${work.seasons}/episodes/${episode}`,
    };
  });
}
