import type { Database } from '../mirror/open.js';
import { DOMAINS } from '../vocabulary.js';
import { entryContent, entryTitle, escapeHtml, feedSubtitle, feedTitle, plainLine } from '../output/wording/feed-text.js';
import { feedText } from '../output/terminal/sanitize.js';
import { mirrorFacts, readActivity, type Activity, type MirrorFacts } from './activity.js';
import { entryId, feedId, owner } from './ids.js';

/**
 * `lk feed`: the mirror's recent activity as an Atom 1.0 (RFC 4287) or JSON Feed 1.1 document, made by the `feed`
 * package (loaded here only, from a file of its own: scripts/build.mjs). Where that package falls short, this file
 * makes up for it:
 * - it writes titles and content as HTML in CDATA sections, escaping nothing and splitting only the first `]]>`: every
 *   text is HTML-escaped here first (so no `<` or `>` of the server's reaches the XML, and no `]]>` either);
 * - it passes characters XML 1.0 forbids (NUL, most C0 controls, U+FFFF, lone surrogates): removed here (feedText);
 * - it throws on a link that is no URL and writes any scheme: only http(s) links are kept, else the feed's own;
 * - it writes an entry with no link as an empty <link/>: left out;
 * - its JSON Feed is version 1 with `author`: rewritten as 1.1 with `authors`.
 * Nothing depends on the clock: the feed's `updated` is its newest entry's, so an unchanged mirror gives the same bytes.
 */

export type FeedFormat = 'atom' | 'json';

export interface FeedChoice {
  format: FeedFormat;
  limit: number;
  domain?: string | undefined;
  since?: number | undefined;
  /** --public: notes, private reviews and the text of spoiler reviews left out. */
  publicOnly: boolean;
  /** The address of the site the feed belongs to (lk publish --base-url): its link, and the feeds' own addresses. */
  siteUrl?: string | undefined;
}

export interface FeedDocument {
  text: string;
  entries: number;
  /** Entries whose notes are in the feed (0 with --public). */
  withNotes: number;
}

const KNOWN_DOMAINS = new Set<string>(DOMAINS);

/** An absolute http(s) URL, as the URL parser writes it; anything else (javascript:, a bare word) is left out. */
function webLink(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    const url = new URL(feedText(value).trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && plainLine(value) !== '' ? plainLine(value) : undefined;
}

interface FeedHead {
  id: string;
  title: string;
  /** The profile's page, else the web application's address; never the API's base URL (no page for a person). */
  link: string | undefined;
  author: { name: string; link?: string | undefined };
  updated: Date;
}

function headOf(facts: MirrorFacts, activity: Activity[], choice: FeedChoice): FeedHead {
  const profile = facts.profile ?? {};
  const name = text(profile.displayName) ?? text(profile.display_name) ?? text(profile.username) ?? text(facts.account);
  const profileLink = webLink(typeof profile.url === 'string' ? profile.url : undefined);
  // An empty feed (a narrow --since or --domain) takes the mirror's newest event: a sync that brings nothing new
  // changes no byte either.
  const newest = activity[0]?.events[0]?.date ?? facts.newestEvent;
  return {
    id: feedId(owner(facts.account, facts.baseUrl), choice.domain),
    title: feedTitle(name, choice.domain),
    link: webLink(choice.siteUrl) ?? profileLink ?? webLink(facts.webApp),
    author: { name: name ?? 'lk', ...(profileLink ? { link: profileLink } : {}) },
    updated: new Date(newest === undefined || Number.isNaN(Date.parse(newest)) ? 0 : Date.parse(newest)),
  };
}

export async function makeFeed(db: Database, choice: FeedChoice): Promise<FeedDocument> {
  const facts = mirrorFacts(db);
  const activity = readActivity(db, choice, facts);
  const head = headOf(facts, activity, choice);
  const ownerName = owner(facts.account, facts.baseUrl);
  // The feed package and its XML writer in their own file (dist/feed.cjs): read when a feed is made, not for --help.
  const { Feed } = await import('feed');
  const feed = new Feed({
    id: head.id,
    title: head.title,
    description: feedSubtitle(),
    ...(head.link ? { link: head.link } : {}),
    ...(choice.siteUrl ? { feedLinks: { atom: new URL('feed.atom', choice.siteUrl).href, json: new URL('feed.json', choice.siteUrl).href } } : {}),
    author: head.author,
    updated: head.updated,
    generator: 'lk',
  });
  let withNotes = 0;
  for (const item of activity) {
    if (!choice.publicOnly && item.notes !== undefined && plainLine(item.notes) !== '') withNotes += 1;
    const link = webLink(item.url);
    const domain = item.domain !== undefined && KNOWN_DOMAINS.has(item.domain) ? item.domain : undefined;
    feed.addItem({
      // Both Atom (type="html") and JSON Feed's title take the text; Atom's goes into CDATA, escaped here first.
      title: choice.format === 'atom' ? escapeHtml(entryTitle(item, facts.ratingScale)) : entryTitle(item, facts.ratingScale),
      id: entryId(ownerName, item.key),
      link: (link ?? head.link)!,
      date: new Date(item.events[0]!.date),
      published: new Date(item.events.at(-1)!.date),
      content: entryContent(item, facts.ratingScale, link, choice.publicOnly),
      ...(domain ? { category: [{ name: domain.toLowerCase(), term: domain.toLowerCase() }] } : {}),
    });
  }
  // An entry with no link of its own nor the feed's: the package writes an empty <link/>, which Atom does not allow.
  const text = choice.format === 'atom' ? feed.atom1().replace(/\n\s*<link\/>/g, '') : jsonFeed11(feed.json1());
  return { text: `${text}\n`, entries: activity.length, withNotes };
}

/** The package's JSON Feed (version 1, `author`) as JSON Feed 1.1: the version URL, `authors` for `author`. */
function jsonFeed11(version1: string): string {
  const { version: _version, author, items, ...rest } = JSON.parse(version1) as Record<string, unknown>;
  const feed = {
    version: 'https://jsonfeed.org/version/1.1',
    ...rest,
    ...(author ? { authors: [author] } : {}),
    // id, url and title first: the order a person reading the file expects.
    items: (items as Array<Record<string, unknown>>).map(({ id, url, title, author: itemAuthor, ...item }) => ({
      id,
      url,
      title,
      ...item,
      ...(itemAuthor ? { authors: [itemAuthor] } : {}),
    })),
  };
  return JSON.stringify(feed, null, 2);
}
