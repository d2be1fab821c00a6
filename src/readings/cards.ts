import { entryDomainOf, entryProgressOf, entryTitleOf } from '../items/entry.js';
import { entriesByDomain, eventsPerLocalDay, ratingSummary } from '../mirror/card-reads.js';
import { mirrorStamp } from '../mirror/read.js';
import type { ReportFigures } from '../report/figures.js';
import { TimeZone, localToday } from '../report/time-zone.js';
import { progressText } from '../output/wording/views.js';
import { nextReading, yearInReview } from './composed.js';
import { mirrorFor, type ReadingHost } from './host.js';

/**
 * The readings of lk card (src/card/): what each card shows, from the mirror, always through the public projection
 * (a card is made to be shown to anyone: no note, no text of a private review, no hidden list can reach it). "Today" is
 * the mirror's last change (mirrorStamp), not the clock: the same mirror gives the same card, byte for byte.
 */

/** Who the card is about: the profile's display name, else its username; null when the mirror holds no profile. */
export interface CardAccount {
  name: string | null;
}

export interface StatsCardData extends CardAccount {
  year: number;
  byDomain: { domain: string | null; entries: number }[];
  entries: number;
  finishedThisYear: number;
  rated: number;
  ratingAverage: number | null;
}

export interface NowCardData extends CardAccount {
  /** Up to NOW_LIMIT entries in progress, most recently active first (lk next's order). */
  items: { title: string | null; domain: string | null; progress: string }[];
  /** In progress in all. */
  total: number;
}

export interface HeatmapCardData extends CardAccount {
  /** Local days, the first a Monday, the last today (the mirror's last change): one count per day. */
  days: { day: string; events: number }[];
  events: number;
  activeDays: number;
}

export interface YearCardData extends CardAccount {
  year: number;
  /** The year is not over: its figures run up to `through` (YYYY-MM-DD). */
  through: string | undefined;
  figures: ReportFigures;
}

/** What the now card lists at most. */
export const NOW_LIMIT = 5;
/** The weeks the heatmap shows, before the current one. */
export const HEATMAP_WEEKS = 52;

interface Frozen {
  host: ReadingHost;
  stamp: number;
}

/** The host with its clock stopped at the mirror's last change; refused for any host that is not public. */
async function frozen(host: ReadingHost): Promise<Frozen> {
  if (host.audience !== 'public') throw new Error('lk: a card is a public reading: its host must read the public projection');
  const stamp = mirrorStamp(await mirrorFor(host), host.now());
  return { host: { ...host, now: () => stamp }, stamp };
}

const nameOf = (figures: ReportFigures): string | null => figures.account.displayName ?? figures.account.username;

/** This year so far (the year of the mirror's last change, in the account's time zone). */
async function thisYear({ host, stamp }: Frozen) {
  const year = Number(localToday(stamp, host.timeZone()).slice(0, 4));
  const review = await yearInReview(host, { year: String(year) });
  // The account's own zone may put the stamp in another year than the fallback zone: asked again in its own.
  const own = Number(localToday(stamp, review.figures.timeZone).slice(0, 4));
  return own === year ? review : yearInReview(host, { year: String(own) });
}

export async function statsCardData(publicHost: ReadingHost): Promise<StatsCardData> {
  const at = await frozen(publicHost);
  const review = await thisYear(at);
  const db = await mirrorFor(at.host);
  const byDomain = entriesByDomain(db);
  const { rated, average } = ratingSummary(db);
  return {
    name: nameOf(review.figures),
    year: Number(review.period.from.slice(0, 4)),
    byDomain,
    entries: byDomain.reduce((sum, row) => sum + row.entries, 0),
    finishedThisYear: review.figures.total.finished,
    rated,
    ratingAverage: average,
  };
}

export async function nowCardData(publicHost: ReadingHost): Promise<NowCardData> {
  const at = await frozen(publicHost);
  const [answer, review] = [await nextReading(at.host, { limit: NOW_LIMIT }, true), await thisYear(at)];
  return {
    name: nameOf(review.figures),
    items: answer.items.map((item) => ({
      title: item.title ?? entryTitleOf(item.entry),
      domain: item.domain ?? entryDomainOf(item.entry),
      progress: progressText(entryProgressOf(item.entry), (value) => value.toLocaleString('en-US')),
    })),
    total: answer.total ?? answer.items.length,
  };
}

const DAY = 86_400_000;

export async function heatmapCardData(publicHost: ReadingHost): Promise<HeatmapCardData> {
  const at = await frozen(publicHost);
  const review = await thisYear(at);
  const zone = new TimeZone(review.figures.timeZone);
  const today = zone.localDate(at.stamp);
  // From the Monday HEATMAP_WEEKS weeks before this week's, through today.
  const first = new Date((today.dayNumber - today.weekday - HEATMAP_WEEKS * 7) * DAY);
  const from = zone.startOfDay(first.getUTCFullYear(), first.getUTCMonth() + 1, first.getUTCDate());
  const to = zone.startOfDay(today.year, today.month, today.day + 1);
  const counted = new Map(
    eventsPerLocalDay(await mirrorFor(at.host), { from, to, segments: zone.offsetSegments(from, to) }).map((row) => [row.day, row.events]),
  );
  const days: HeatmapCardData['days'] = [];
  for (let number = first.getTime() / DAY; number <= today.dayNumber; number += 1) {
    const day = new Date(number * DAY).toISOString().slice(0, 10);
    days.push({ day, events: counted.get(day) ?? 0 });
  }
  return {
    name: nameOf(review.figures),
    days,
    events: days.reduce((sum, { events }) => sum + events, 0),
    activeDays: days.filter(({ events }) => events > 0).length,
  };
}

export async function yearCardData(publicHost: ReadingHost): Promise<YearCardData> {
  const review = await thisYear(await frozen(publicHost));
  return {
    name: nameOf(review.figures),
    year: Number(review.period.from.slice(0, 4)),
    through: review.period.through,
    figures: review.figures,
  };
}
