import { VERSION } from '../../util/version.js';
import {
  airTimeOf,
  episodeOf,
  episodePageOf,
  episodesBehindOf,
  episodeTitleOf,
  runtimeMinutesOf,
  seasonOf,
  showTitleOf,
} from '../../items/calendar.js';
import { workIdOf } from '../../items/work.js';
import { itemIdOf } from '../../items/values.js';
import { sanitizeText } from '../terminal/sanitize.js';
import { sha256Hex } from '../../util/hash.js';

/**
 * `lk calendar --format ics`: the upcoming episodes as an iCalendar feed (RFC 5545, plus RFC 7986's
 * REFRESH-INTERVAL), for a calendar app that subscribes to a file a cron job keeps current. Every field beyond what
 * docs/api.md names is read loosely, as in the table: an item without an air time is left out, a missing piece is left
 * out of the text, and nothing ever reads "undefined".
 */

/** How often subscribers should fetch the feed again: twice a day keeps up with a weekly schedule. */
export const REFRESH_INTERVAL = 'PT12H';
/** When the data gives no runtime: long enough to show as a block in a day view, short enough to be plausible. */
export const DEFAULT_EPISODE_MINUTES = 30;
/** Right-hand side of every UID (RFC 5545 §3.8.4.7 asks for a domain-like suffix). */
export const UID_DOMAIN = 'lk';
const CALENDAR_NAME = 'Upcoming episodes (lk)';
const MAX_LINE_OCTETS = 75;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export interface FeedOptions {
  /** Every DTSTAMP that `changedAt` does not give: the time the feed is written (live), the mirror's last change. */
  now: number;
  /**
   * When an item last changed, as its data say: its DTSTAMP (RFC 5545 §3.8.7.2: without METHOD, the time the event
   * was last revised), so the same data give the same bytes whenever the feed is written.
   */
  changedAt?: ((item: unknown) => number | undefined) | undefined;
  /** Leave episode titles out of SUMMARY and DESCRIPTION. */
  spoilerFree: boolean;
}

export interface Feed {
  /** The whole VCALENDAR, CRLF line ends, folded. */
  text: string;
  events: number;
  /** Items left out: no usable air time, or the same episode twice. */
  skipped: number;
}

export function calendarFeed(items: unknown[], options: FeedOptions): Feed {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//lk//lk ${escapeText(VERSION)}//EN`,
    'CALSCALE:GREGORIAN',
    // No METHOD: a feed to subscribe to, not a scheduling message; DTSTAMP then says when each event last changed.
    `NAME:${escapeText(CALENDAR_NAME)}`,
    `X-WR-CALNAME:${escapeText(CALENDAR_NAME)}`,
    `X-WR-CALDESC:${escapeText('Upcoming episodes of the shows you follow, written by lk calendar --format ics')}`,
    `REFRESH-INTERVAL;VALUE=DURATION:${REFRESH_INTERVAL}`,
    `X-PUBLISHED-TTL:${REFRESH_INTERVAL}`,
  ];
  const seen = new Set<string>();
  let events = 0;
  let skipped = 0;
  for (const item of items) {
    const event = eventLines(item, options);
    if (!event || seen.has(event.uid)) {
      skipped += 1;
      continue;
    }
    seen.add(event.uid);
    lines.push(...event.lines);
    events += 1;
  }
  lines.push('END:VCALENDAR');
  return { text: lines.map(foldLine).join('\r\n') + '\r\n', events, skipped };
}

function eventLines(item: unknown, options: FeedOptions): { uid: string; lines: string[] } | undefined {
  const airs = airTime(airTimeOf(item));
  if (!airs) return undefined;
  const show = serverText(showTitleOf(item));
  const season = wholeNumber(seasonOf(item));
  const number = wholeNumber(episodeOf(item));
  const title = options.spoilerFree ? '' : serverText(episodeTitleOf(item));
  const code = season !== undefined && number !== undefined ? `S${pad(season)}E${pad(number)}` : number !== undefined ? `E${pad(number)}` : '';
  const summary = [show, code, title].filter((part) => part !== '').join(' · ') || 'Upcoming episode';
  const url = webUrl(episodePageOf(item));
  const uid = eventUid(item, season, number, [show, code, title, airs.start].join('\u0000'));

  const lines = ['BEGIN:VEVENT', `UID:${escapeText(uid)}`, `DTSTAMP:${utcStamp(options.changedAt?.(item) ?? options.now)}`];
  if (airs.allDay) {
    lines.push(`DTSTART;VALUE=DATE:${airs.start}`, `DTEND;VALUE=DATE:${airs.end}`);
  } else {
    const minutes = wholeNumber(runtimeMinutesOf(item));
    const length = minutes !== undefined && minutes > 0 && minutes <= 24 * 60 ? minutes : DEFAULT_EPISODE_MINUTES;
    lines.push(`DTSTART:${utcStamp(airs.time)}`, `DTEND:${utcStamp(airs.time + length * MINUTE_MS)}`);
  }
  lines.push(`SUMMARY:${escapeText(summary)}`);
  const description = [title, behindText(episodesBehindOf(item)), url ?? ''].filter((part) => part !== '').join('\n');
  if (description !== '') lines.push(`DESCRIPTION:${escapeText(description)}`);
  if (url) lines.push(`URL:${url}`);
  lines.push('TRANSP:TRANSPARENT', 'END:VEVENT');
  return { uid, lines };
}

/**
 * The same episode gets the same UID on every run and on every instance holding the same data, so a calendar app
 * updates an event instead of adding a copy: the show's work id (the same for every account, docs/api.md, Resources) with the
 * season and episode, else the item's own id, else a digest of what the item says about the episode.
 */
function eventUid(item: unknown, season: number | undefined, number: number | undefined, fallback: string): string {
  const showId = idPart(workIdOf(item));
  if (showId && number !== undefined) return `${showId}-s${season ?? 0}e${number}@${UID_DOMAIN}`;
  const id = idPart(itemIdOf(item));
  if (id) return `${id}@${UID_DOMAIN}`;
  return `${sha256Hex(fallback).slice(0, 32)}@${UID_DOMAIN}`;
}

/** An id as UID-safe characters: unreserved ones kept, anything else percent-encoded; absurd lengths digested. */
function idPart(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const text = String(value);
  if (text === '') return undefined;
  if (text.length > 200) return sha256Hex(text).slice(0, 32);
  return text.replace(/[^A-Za-z0-9._~-]/gu, (char) =>
    encodeURIComponent(char).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
  );
}

type AirTime = { allDay: false; time: number; start: string } | { allDay: true; start: string; end: string };

/** An ISO 8601 date-time (docs/api.md, The service) becomes a UTC instant; a bare date, an all-day event; anything else, nothing. */
function airTime(value: unknown): AirTime | undefined {
  if (typeof value !== 'string') return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const day = Date.parse(`${value}T00:00:00Z`);
    if (Number.isNaN(day) || !new Date(day).toISOString().startsWith(value)) return undefined;
    return { allDay: true, start: value.replace(/-/g, ''), end: utcStamp(day + DAY_MS).slice(0, 8) };
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time) || time < Date.UTC(1000, 0, 1) || time >= Date.UTC(9999, 0, 1)) return undefined;
  return { allDay: false, time, start: utcStamp(time) };
}

/** `20261123T010000Z`: a DATE-TIME in UTC (RFC 5545 §3.3.5, form 2). */
export function utcStamp(time: number): string {
  return new Date(time)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

function behindText(value: unknown): string {
  const behind = wholeNumber(value);
  if (behind === undefined) return '';
  if (behind === 0) return 'All aired episodes watched';
  return `${behind} aired episode${behind === 1 ? '' : 's'} not watched yet`;
}

/** Only http(s) links, normalised (spaces and the like percent-encoded); a URI value is not TEXT-escaped. */
function webUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** A string from the server, on one line, with control characters and bidi overrides made harmless. */
function serverText(value: unknown): string {
  if (typeof value === 'string') return sanitizeText(value).trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

function wholeNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\d{1,9}$/.test(value)) return Number(value);
  return undefined;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** TEXT escaping (RFC 5545 §3.3.11): backslash, semicolon, comma and line breaks. */
export function escapeText(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/**
 * Folding (RFC 5545 §3.1): no line longer than 75 octets before its CRLF; each continuation starts with one space
 * (which counts). Breaks fall between characters, never inside a UTF-8 sequence.
 */
export function foldLine(line: string): string {
  if (Buffer.byteLength(line, 'utf8') <= MAX_LINE_OCTETS) return line;
  const parts: string[] = [];
  let current = '';
  let size = 0;
  let limit = MAX_LINE_OCTETS;
  for (const char of line) {
    const octets = Buffer.byteLength(char, 'utf8');
    if (size + octets > limit) {
      parts.push(current);
      current = '';
      size = 0;
      limit = MAX_LINE_OCTETS - 1;
    }
    current += char;
    size += octets;
  }
  parts.push(current);
  return parts.join('\r\n ');
}
