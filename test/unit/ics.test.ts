import { describe, expect, it } from 'vitest';
import { calendarFeed, escapeText, foldLine, utcStamp } from '../../src/output/formats/ics.js';

const octets = (text: string): number => Buffer.byteLength(text, 'utf8');

/** RFC 5545 §3.1 unfolding: remove every CRLF followed by one space or tab. */
const unfold = (text: string): string => text.replace(/\r\n[ \t]/g, '');

describe('folding', () => {
  it('leaves a line of 75 octets alone and folds one of 76', () => {
    expect(foldLine('x'.repeat(75))).toBe('x'.repeat(75));
    expect(foldLine('x'.repeat(76))).toBe(`${'x'.repeat(75)}\r\n x`);
  });

  it('counts octets, not characters, and never splits a multi-byte character', () => {
    const line = `SUMMARY:${'東京物語 · Amélie · 🎬 '.repeat(8)}`;
    const folded = foldLine(line);
    const lines = folded.split('\r\n');
    expect(lines.length).toBeGreaterThan(3);
    for (const [i, part] of lines.entries()) {
      expect(octets(part)).toBeLessThanOrEqual(75);
      if (i > 0) expect(part.startsWith(' ')).toBe(true);
      // Each physical line is valid UTF-8 on its own: no character was cut in half.
      expect(Buffer.from(Buffer.from(part, 'utf8').toString('utf8'), 'utf8').equals(Buffer.from(part, 'utf8'))).toBe(true);
      expect(part).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    }
    expect(unfold(folded)).toBe(line);
  });

  it('fills lines: a fold happens only where the next character would not fit', () => {
    const line = `X:${'é'.repeat(100)}`; // 2 + 200 octets
    const [first, second] = foldLine(line).split('\r\n');
    expect(octets(first!)).toBe(74); // 2 + 36 × 2; one more é would make 76
    expect(octets(second!)).toBe(75); // the space + 37 × 2
  });
});

describe('TEXT escaping', () => {
  it('escapes backslash, semicolon, comma and line breaks, in that order', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf');
  });

  it('leaves colons, quotes and non-ASCII text alone', () => {
    expect(escapeText('Re: "Amélie" 東京')).toBe('Re: "Amélie" 東京');
  });
});

describe('calendarFeed', () => {
  const now = Date.UTC(2026, 10, 23, 8, 0, 0);
  const item = {
    id: 'x',
    show: { id: 'w1', title: 'Shōgun, Part; 1', episodeRuntimeMinutes: 58 },
    season: 2,
    episode: 5,
    title: 'Crimson Sky',
    airsAt: '2026-11-24T02:00:00.000Z',
    episodesBehind: 3,
    url: 'https://app.lk.example/works/w1/seasons/2/episodes/5',
  };

  it('writes one event with a UID from the show, season and episode, UTC times and an escaped summary', () => {
    const { text, events, skipped } = calendarFeed([item], { now, spoilerFree: false });
    expect(events).toBe(1);
    expect(skipped).toBe(0);
    const lines = unfold(text).split('\r\n');
    expect(lines).toContain('UID:w1-s2e5@lk');
    expect(lines).toContain(`DTSTAMP:${utcStamp(now)}`);
    expect(lines).toContain('DTSTART:20261124T020000Z');
    expect(lines).toContain('DTEND:20261124T025800Z');
    expect(lines).toContain('SUMMARY:Shōgun\\, Part\\; 1 · S02E05 · Crimson Sky');
    expect(lines).toContain('TRANSP:TRANSPARENT');
  });

  it('uses 30 minutes when the data gives no runtime', () => {
    const { text } = calendarFeed([{ ...item, show: { id: 'w1', title: 'Show' } }], { now, spoilerFree: false });
    expect(text).toContain('\r\nDTEND:20261124T023000Z\r\n');
  });

  it('spoiler-free: no episode title anywhere', () => {
    const { text } = calendarFeed([item], { now, spoilerFree: true });
    expect(unfold(text)).not.toContain('Crimson');
    expect(unfold(text)).toContain('SUMMARY:Shōgun\\, Part\\; 1 · S02E05\r\n');
  });

  it('leaves out items with no usable air time, and the same episode listed twice', () => {
    const feed = calendarFeed([item, item, { ...item, airsAt: 'soon' }, { ...item, airsAt: null }], { now, spoilerFree: false });
    expect(feed.events).toBe(1);
    expect(feed.skipped).toBe(3);
  });

  it('an empty calendar is still a whole, valid VCALENDAR', () => {
    const { text } = calendarFeed([], { now, spoilerFree: false });
    expect(text.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text).not.toContain('VEVENT');
  });
});
