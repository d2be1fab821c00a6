import { listDescriptionOf, listNameOf } from '../items/list.js';
import { text } from '../items/values.js';
import { mirrorStamp } from '../mirror/read.js';
import {
  datedEventCount,
  diaryRows,
  entryCounts,
  listItemRows,
  listRows,
  profileNames,
  type DiaryRow,
  type DomainCount,
} from '../mirror/site-reads.js';
import { nextReading } from './composed.js';
import { mirrorFor, type ReadingHost } from './host.js';

/**
 * The readings lk publish's pages are made of (src/publish/), run by the engine for a public host — so every table
 * they read is the public projection: no note, no text of a withheld review, only the lists published. Each is the
 * mirror's as of its last change, never the wall clock's: the same mirror gives the same site.
 */

export interface SiteHead {
  /** The account's name (display name, else username, else "lk"). */
  name: string;
  username: string | null;
  /** The mirror's last change (ms): the site's "as of". */
  asOf: number;
}

export async function siteHead(host: ReadingHost): Promise<SiteHead> {
  const db = await mirrorFor(host);
  const names = profileNames(db);
  return { name: names.displayName ?? names.username ?? 'lk', username: names.username, asOf: mirrorStamp(db, host.now()) };
}

/** What is in progress, most recently active first (lk next's answer). */
export async function siteInProgress(host: ReadingHost, limit: number) {
  return (await nextReading(host, { limit }, true)).items;
}

export async function siteCounts(host: ReadingHost): Promise<DomainCount[]> {
  return entryCounts(await mirrorFor(host));
}

/** A dated event as the diary shows it: the mirror's row, its work's columns beside it. */
export type DiaryEvent = DiaryRow;

export interface DiaryPage {
  page: number;
  pages: number;
  events: DiaryEvent[];
}

/** How many pages of `perPage` the diary fills (one, empty, for a history with no dated event). */
export async function diaryPageCount(host: ReadingHost, perPage: number): Promise<number> {
  return Math.max(1, Math.ceil(datedEventCount(await mirrorFor(host)) / perPage));
}

/** One page of the diary (from 1; one past the last holds no event). */
export async function diaryPage(host: ReadingHost, perPage: number, page: number): Promise<DiaryPage> {
  const pages = await diaryPageCount(host, perPage);
  return { page, pages, events: Array.from(diaryRows(await mirrorFor(host), (page - 1) * perPage, perPage)) };
}

/** Every page of the diary in order, read by one statement: linear in the history, however long. */
export async function* diaryPages(host: ReadingHost, perPage: number): AsyncGenerator<DiaryPage> {
  const pages = await diaryPageCount(host, perPage);
  const rows = diaryRows(await mirrorFor(host), 0, -1);
  for (let page = 1; page <= pages; page += 1) {
    const events: DiaryEvent[] = [];
    while (events.length < perPage) {
      const next = rows.next();
      if (next.done) break;
      events.push(next.value);
    }
    yield { page, pages, events };
  }
}

/** The most recent dated events (the index's "recent activity"). */
export async function recentEvents(host: ReadingHost, count: number): Promise<DiaryEvent[]> {
  return (await diaryPage(host, count, 1)).events;
}

export interface PublishedList {
  id: string;
  name: string;
  description: string | null;
  items: { title: string | null; type: string | null; year: number | null; url: string | null; season: number | null; episode: number | null }[];
}

/** The lists the public surface shows, each with its items (never a note). */
export async function publishedLists(host: ReadingHost): Promise<PublishedList[]> {
  const db = await mirrorFor(host);
  return listRows(db).map(({ id, json }) => {
    const list = JSON.parse(json) as unknown;
    return {
      id,
      name: text(listNameOf(list)) ?? `List ${id}`,
      description: text(listDescriptionOf(list)),
      items: listItemRows(db, id).map(({ json: _json, ...item }) => item),
    };
  });
}
