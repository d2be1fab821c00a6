import { formatCount, formatDuration } from '../../util/units.js';
import { feedText } from '../terminal/sanitize.js';

/**
 * The words of `lk feed` (src/feed/): each entry's title and its HTML content, the feed's title, and the lines on
 * stderr. Every text from the server goes through feedText (no control characters, nothing XML forbids) and, in
 * HTML, through escapeHtml.
 */

export type ActivityKind = 'finished' | 'film' | 'episodes' | 'sessions' | 'other';

/** One event of the history, as the wording reads it. */
export interface FeedEvent {
  kind: string | undefined;
  cycle: number | undefined;
  season: number | undefined;
  episode: number | undefined;
  minutes: number | undefined;
  pages: number | undefined;
}

export interface FeedReview {
  title: string | undefined;
  body: string | undefined;
  /** Marked private, in any spelling (src/items/review.ts). */
  private: boolean;
  /** Marked as a spoiler, in any spelling. */
  spoiler: boolean;
}

/** What the wording needs of an item of activity (src/feed/activity.ts `Activity`). */
export interface FeedItemFacts {
  kind: ActivityKind;
  title: string | undefined;
  type: string | undefined;
  domain: string | undefined;
  rating: number | undefined;
  notes: string | undefined;
  review: FeedReview | undefined;
  /** Newest first. */
  events: FeedEvent[];
}

/** How long an excerpt of a review or of notes may be, in characters. */
export const EXCERPT_LENGTH = 280;

const TYPE_OF_DOMAIN: Record<string, string> = { GAMES: 'game', BOOKS: 'book', MUSIC: 'album' };

export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** One line of text from the server: nothing a feed forbids, whitespace runs as one space. */
export function plainLine(value: string): string {
  return feedText(value).replace(/\s+/g, ' ').trim();
}

/** At most `length` characters (whole code points), cut at a word where one is near, with … when cut. */
export function excerpt(value: string, length = EXCERPT_LENGTH): string {
  // A 1 MB note is cut before it is cleaned: nothing past the excerpt is read.
  const head = value.slice(0, length * 4);
  const line = plainLine(head);
  const chars = Array.from(line);
  if (chars.length <= length && head.length === value.length) return line;
  if (chars.length <= length) return `${line}…`;
  const cut = chars.slice(0, length).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > length * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The work's title as plain text: a feed's title is text, not Markdown, so readers show it as written. */
function workTitle(item: FeedItemFacts): string {
  const title = item.title === undefined ? '' : plainLine(item.title);
  return title === '' ? '(untitled)' : title;
}

function typeLabel(item: FeedItemFacts): string {
  const type = item.type === undefined ? '' : plainLine(item.type).toLowerCase();
  const label = type || TYPE_OF_DOMAIN[item.domain ?? ''] || '';
  return label === '' ? '' : ` (${label})`;
}

export function ratingText(rating: number, scale: number | undefined): string {
  return scale === undefined ? `rated ${rating}` : `${rating}/${scale}`;
}

const again = (item: FeedItemFacts) => ((item.events[0]?.cycle ?? 1) > 1 ? ' again' : '');

function episodeCode(event: FeedEvent): string | undefined {
  if (event.episode === undefined) return undefined;
  const pad = (n: number) => String(n).padStart(2, '0');
  return event.season === undefined ? `E${pad(event.episode)}` : `S${pad(event.season)}E${pad(event.episode)}`;
}

function sum(values: Array<number | undefined>): number | undefined {
  const present = values.filter((value): value is number => value !== undefined);
  return present.length === 0 ? undefined : present.reduce((a, b) => a + b, 0);
}

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** The title a person would write: "Finished *Dune* (book) — 8/10", "Watched 3 episodes of *Severance* (S02E03–S02E05)". */
export function entryTitle(item: FeedItemFacts, scale: number | undefined): string {
  const rating = item.rating === undefined ? '' : ` — ${ratingText(item.rating, scale)}`;
  switch (item.kind) {
    case 'finished': {
      const verb = item.domain === 'MUSIC' || /album/i.test(item.type ?? '') ? 'Listened to' : 'Finished';
      return `${verb} ${workTitle(item)}${again(item)}${typeLabel(item)}${rating}`;
    }
    case 'film':
      return `Watched ${workTitle(item)}${again(item)}${typeLabel(item)}${rating}`;
    case 'episodes': {
      const codes = item.events.map(episodeCode).filter((code) => code !== undefined);
      if (item.events.length === 1) return `Watched ${workTitle(item)}${codes[0] ? ` ${codes[0]}` : ''}`;
      // Events are newest first: the range reads oldest to newest.
      const range = codes.length === 0 ? '' : codes.length === 1 ? ` (${codes[0]})` : ` (${codes.at(-1)}–${codes[0]})`;
      return `Watched ${plural(item.events.length, 'episode', 'episodes')} of ${workTitle(item)}${range}`;
    }
    case 'sessions': {
      const minutes = sum(item.events.map((event) => event.minutes));
      const pages = sum(item.events.map((event) => event.pages));
      const sessions = item.events.length > 1 ? ` (${plural(item.events.length, 'session', 'sessions')})` : '';
      if (/READ/i.test(item.events[0]?.kind ?? '') || (pages !== undefined && minutes === undefined))
        return pages === undefined ? `Read ${workTitle(item)}${sessions}` : `Read ${plural(pages, 'page', 'pages')} of ${workTitle(item)}${sessions}`;
      if (/GAME|PLAY/i.test(item.events[0]?.kind ?? '') || minutes !== undefined)
        return `Played ${workTitle(item)}${minutes === undefined ? '' : ` for ${formatDuration(minutes * 60)}`}${sessions}`;
      return `${workTitle(item)}: ${plural(item.events.length, 'session', 'sessions')}`;
    }
    default: {
      const kind = plainLine(item.events[0]?.kind ?? '')
        .toLowerCase()
        .replace(/_/g, ' ');
      return `${workTitle(item)}${typeLabel(item)}${kind ? `: ${kind}` : ''}${rating}`;
    }
  }
}

/**
 * The entry's content, as HTML: the rating, the episodes or sessions, an excerpt of the review (under a warning when
 * it is marked as a spoiler), the notes, and the link to the web app's page. For a public feed (--public, and lk
 * serve's, whose mirror holds no withheld text) the notes are left out, and so is a private review (not even that
 * there is one); a spoiler review is a line saying so. What is public is decided from the review's marks, never from
 * whether its text is at hand: both give the same document.
 */
export function entryContent(item: FeedItemFacts, scale: number | undefined, url: string | undefined, publicOnly: boolean): string {
  const parts: string[] = [];
  if (item.rating !== undefined) parts.push(`<p>Rating: ${escapeHtml(ratingText(item.rating, scale))}</p>`);
  if (item.kind === 'episodes') {
    const codes = item.events.map(episodeCode).filter((code) => code !== undefined);
    if (codes.length > 1) parts.push(`<p>Episodes: ${escapeHtml([...codes].reverse().join(', '))}</p>`);
  }
  const minutes = sum(item.events.map((event) => event.minutes));
  if (minutes !== undefined && item.kind !== 'sessions') parts.push(`<p>Time: ${escapeHtml(formatDuration(minutes * 60))}</p>`);
  const review = item.review;
  if (review !== undefined && publicOnly && (review.private || review.spoiler)) {
    if (!review.private) parts.push('<p>Review: contains spoilers, read it on the page.</p>');
  } else if (review !== undefined && (review.title !== undefined || review.body !== undefined)) {
    const heading = review.title === undefined ? '' : `<p><strong>${escapeHtml(excerpt(review.title, 120))}</strong></p>`;
    const body = review.body === undefined ? '' : `<p>${escapeHtml(excerpt(review.body))}</p>`;
    if (!review.spoiler) parts.push(`<blockquote>${heading}${body}</blockquote>`);
    else parts.push(`<p>Review (spoilers):</p>\n<blockquote>${heading}${body}</blockquote>`);
  }
  if (!publicOnly && item.notes !== undefined && plainLine(item.notes) !== '') parts.push(`<p>Notes: ${escapeHtml(excerpt(item.notes))}</p>`);
  if (url !== undefined) parts.push(`<p><a href="${escapeHtml(url)}">Open in the web app</a></p>`);
  return parts.join('\n');
}

export function feedTitle(name: string | undefined, domain: string | undefined): string {
  const who = name === undefined || plainLine(name) === '' ? 'My' : `${plainLine(name)}’s`;
  const what = domain === undefined ? 'activity' : `activity: ${domain.toLowerCase()}`;
  return `${who} recent ${what}`;
}

export function feedSubtitle(): string {
  return 'Films, episodes, games, books and albums, newest first: made by lk from its mirror of the tracking service.';
}

export function notesIncludedNotice(entries: number): string {
  return `lk: the feed includes your notes on ${plural(entries, 'entry', 'entries')} (the web app keeps them private); --public leaves them out`;
}

export function feedWrittenNotice(path: string, entries: number, format: 'atom' | 'json'): string {
  return `lk: wrote ${path} (${plural(entries, 'entry', 'entries')}, ${format === 'atom' ? 'Atom 1.0' : 'JSON Feed 1.1'})`;
}

export function emptyFeedNotice(): string {
  return 'No dated activity in the mirror for this choice: the feed has no entries.';
}

export function feedUnchangedNotice(path: string, entries: number): string {
  return `lk: ${path} is up to date (${plural(entries, 'entry', 'entries')}), left untouched`;
}
