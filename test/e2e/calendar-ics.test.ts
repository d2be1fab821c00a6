import { readdirSync, readFileSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startFakeApi, type FakeApi } from './fake-api.js';
import { expectRefusedBeforeAnyRequest, runLkInProcess, startTestBed, tempHome, type TestBed } from './harness.js';

interface CalendarItem {
  id: string;
  show: { id: string; title: string; episodeRuntimeMinutes?: number };
  season: number;
  episode: number;
  title: string;
  airsAt: string;
  episodesBehind: number;
  url: string;
}

interface ParsedEvent {
  uid: string;
  summary: string;
  description: string;
  start: string;
  end: string;
  url: string | null;
  transp: string | null;
}

/** The feed as a calendar app reads it: through Mozilla's iCalendar parser, not through our own code. */
function parseFeed(text: string): { calendar: ICAL.Component; events: ParsedEvent[] } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents('vevent').map((component) => {
    const event = new ICAL.Event(component);
    return {
      uid: event.uid,
      summary: event.summary,
      description: event.description ?? '',
      start: event.startDate.toJSDate().toISOString(),
      end: event.endDate.toJSDate().toISOString(),
      url: (component.getFirstPropertyValue('url') as string | null) ?? null,
      transp: (component.getFirstPropertyValue('transp') as string | null) ?? null,
    };
  });
  return { calendar, events };
}

const code = (item: CalendarItem): string => `S${String(item.season).padStart(2, '0')}E${String(item.episode).padStart(2, '0')}`;

let bed: TestBed;
let items: CalendarItem[];
let feed: string;

beforeAll(async () => {
  // A fixed clock: the calendar follows the clock at each request, and two runs must see the same episodes.
  const now = Date.now();
  bed = await startTestBed({ entries: 120, rateLimit: 0, now: () => now });
  const json = await bed.lk(['calendar', '--json']);
  expect(json.code).toBe(0);
  items = JSON.parse(json.stdout) as CalendarItem[];
  const ics = await bed.lk(['calendar', '--format', 'ics']);
  expect(ics.code).toBe(0);
  expect(ics.stderr).toBe('');
  feed = ics.stdout;
});

afterAll(async () => {
  await bed.sandbox.close();
});

describe('lk calendar --format ics', () => {
  it('parses into one event per episode of lk calendar --json, in order, with the same start times in UTC', () => {
    expect(items.length).toBeGreaterThan(0);
    const { events } = parseFeed(feed);
    expect(events).toHaveLength(items.length);
    expect(events.map((event) => event.start)).toEqual(items.map((item) => item.airsAt));
    expect(feed).toMatch(/\r\nDTSTART:\d{8}T\d{6}Z\r\n/);
  });

  it('ends each event after the show’s episode runtime', () => {
    const { events } = parseFeed(feed);
    items.forEach((item, i) => {
      const minutes = item.show.episodeRuntimeMinutes ?? 30;
      expect(Date.parse(events[i]!.end) - Date.parse(item.airsAt)).toBe(minutes * 60_000);
    });
  });

  it('titles each event "Show · S02E05 · Title" and links the episode', () => {
    const { events } = parseFeed(feed);
    items.forEach((item, i) => {
      expect(events[i]!.summary).toBe(`${item.show.title} · ${code(item)} · ${item.title}`);
      expect(events[i]!.url).toBe(item.url);
      expect(events[i]!.description).toContain(item.title);
    });
    expect(feed).not.toMatch(/undefined|null|\[object Object\]/);
  });

  it('gives every episode a unique UID that is the same on the next run', async () => {
    const again = await bed.lk(['calendar', '--format', 'ics']);
    expect(again.code).toBe(0);
    const first = parseFeed(feed).events.map((event) => event.uid);
    const second = parseFeed(again.stdout).events.map((event) => event.uid);
    expect(new Set(first).size).toBe(first.length);
    expect(second).toEqual(first);
    for (const uid of first) expect(uid).toMatch(/^[A-Za-z0-9._~%-]+@lk$/);
  });

  it('ends every line with CRLF and folds every line to at most 75 octets', () => {
    expect(feed.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(feed).not.toMatch(/[^\r]\n|\r[^\n]/);
    for (const line of feed.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
  });

  it('marks every event transparent, so episodes never block the day', () => {
    const { events } = parseFeed(feed);
    for (const event of events) expect(event.transp).toBe('TRANSPARENT');
  });

  it('asks subscribers to refresh every 12 hours (REFRESH-INTERVAL and X-PUBLISHED-TTL) and names itself', () => {
    const { calendar } = parseFeed(feed);
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(String(calendar.getFirstPropertyValue('prodid'))).toMatch(/lk/);
    expect(calendar.getFirstPropertyValue('calscale')).toBe('GREGORIAN');
    // Issue 44: no METHOD (a feed to subscribe to, not a scheduling message): DTSTAMP is then each event's last change.
    expect(calendar.getFirstPropertyValue('method')).toBeNull();
    expect(String(calendar.getFirstPropertyValue('refresh-interval'))).toBe('PT12H');
    expect(feed).toContain('\r\nREFRESH-INTERVAL;VALUE=DURATION:PT12H\r\n');
    expect(String(calendar.getFirstPropertyValue('x-published-ttl'))).toBe('PT12H');
    expect(String(calendar.getFirstPropertyValue('x-wr-calname'))).not.toBe('');
  });

  it('--spoiler-free leaves the episode titles out of SUMMARY and DESCRIPTION, and keeps the UIDs', async () => {
    const result = await bed.lk(['calendar', '--format', 'ics', '--spoiler-free']);
    expect(result.code).toBe(0);
    const { events } = parseFeed(result.stdout);
    expect(events).toHaveLength(items.length);
    items.forEach((item, i) => {
      expect(events[i]!.summary).toBe(`${item.show.title} · ${code(item)}`);
      if (!item.show.title.includes(item.title)) expect(events[i]!.description).not.toContain(item.title);
    });
    expect(events.map((event) => event.uid)).toEqual(parseFeed(feed).events.map((event) => event.uid));
  });

  it('-o writes the feed to a file, private when new, and prints nothing on stdout', async () => {
    const dir = tempHome().root;
    const file = join(dir, 'lk.ics');
    const result = await bed.lk(['calendar', '--format', 'ics', '-q', '-o', file]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('');
    const written = readFileSync(file, 'utf8');
    expect(parseFeed(written).events.map((event) => event.uid)).toEqual(parseFeed(feed).events.map((event) => event.uid));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['lk.ics']); // no temporary file left behind
  });

  it('-o replaces an existing feed whole and keeps its permissions', async () => {
    const dir = tempHome().root;
    const file = join(dir, 'lk.ics');
    writeFileSync(file, 'old');
    chmodSync(file, 0o644);
    const result = await bed.lk(['calendar', '--format', 'ics', '--output', file]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/wrote .*lk\.ics \(\d+ events\)/);
    expect(readFileSync(file, 'utf8').startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o644);
  });

  it('-o into a folder whose parent does not exist fails with one line (exit 1)', async () => {
    const file = join(tempHome().root, 'missing', 'deeper', 'lk.ics');
    const result = await bed.lk(['calendar', '--format', 'ics', '-o', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^lk: cannot write .*lk\.ics: no such file or directory\n$/);
  });
});

describe('usage errors, before any request', () => {
  it.each([
    [['library', '--format', 'ics']],
    [['--format', 'ics', 'library', 'show', 'e1']],
    [['history', '--format', 'ics']],
    [['stats', '--format', 'ics']],
    [['export', '--format', 'ics']],
    [['auth', 'login', '--with-key', '--format', 'ics']],
    [['calendar', '--json', '--spoiler-free']],
    [['calendar', '--format', 'ics', '--fields', 'id']],
    [['calendar', '--format', 'ics', '--json']],
  ])('lk %j exits 2', async (args) => {
    await expectRefusedBeforeAnyRequest(bed, args);
  });

  it('names the one command that takes --format ics', async () => {
    const result = await bed.lk(['library', '--format', 'ics']);
    expect(result.stderr).toMatch(/^lk: --format ics is only for lk calendar/);
  });
});

describe('whatever the server sends', () => {
  const FAKE_KEY = `lk_${'Q'.repeat(43)}abc123`;
  const longTitle = `東京の夜 ${'é'.repeat(40)} 🎬 ${'ü'.repeat(40)}`;
  const sparse = [
    // Only what SPEC.md names, plus an air time: no show, no numbers, no url.
    { airsAt: '2030-01-02T20:00:00.000Z', episodesBehind: 0 },
    // No air time at all: left out.
    { id: 'x2', show: { id: 'w9', title: 'No Date' }, season: 1, episode: 1, title: 'Never' },
    // A hostile title: escapes, commas, semicolons, a backslash, a newline; a link that is not http.
    {
      id: 'x3',
      show: { id: 'w\u001b7', title: 'Evil\u001b]0;pwned\u0007, Inc; \\o/' },
      season: 2,
      episode: 5,
      title: `Line one\nline two; ${longTitle}`,
      airsAt: '2030-01-03T21:30:00.000Z',
      url: 'javascript:alert(1)',
    },
    // A date without a time: an all-day event.
    { id: 'x4', show: { title: 'Dated' }, episode: 3, airsAt: '2030-01-04' },
  ];
  let api: FakeApi;
  let home: ReturnType<typeof tempHome>;

  beforeAll(async () => {
    api = await startFakeApi((_req, res) => sendJson(res, 200, { items: sparse }));
    home = tempHome();
  });

  afterAll(async () => {
    await api.close();
  });

  const run = (args: string[]) =>
    runLkInProcess(args, { env: { LK_BASE_URL: api.url, LK_API_KEY: FAKE_KEY, LK_CONFIG_DIR: home.configDir, LK_CACHE_DIR: home.cacheDir } });

  it('skips an item with no air time, never prints "undefined", and still parses', async () => {
    const result = await run(['calendar', '--format', 'ics']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/left out 1 of 4/);
    const { events } = parseFeed(result.stdout);
    expect(events).toHaveLength(3);
    expect(events[0]!.summary).toBe('Upcoming episode');
    expect(events[0]!.url).toBeNull();
    expect(result.stdout).not.toMatch(/undefined|null|NaN|\[object Object\]/);
  });

  it('defuses control characters and escapes commas, semicolons, backslashes and newlines so they read back exactly', async () => {
    const result = await run(['calendar', '--format', 'ics']);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/);
    const hostile = parseFeed(result.stdout).events[1]!;
    expect(hostile.summary).toBe(`Evil\uFFFD]0;pwned\uFFFD, Inc; \\o/ · S02E05 · Line one line two; ${longTitle}`);
    expect(hostile.url).toBeNull();
    expect(hostile.uid).toMatch(/^[A-Za-z0-9._~%-]+@lk$/);
    for (const line of result.stdout.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
  });

  it('makes a date without a time an all-day event', async () => {
    const result = await run(['calendar', '--format', 'ics']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('\r\nDTSTART;VALUE=DATE:20300104\r\nDTEND;VALUE=DATE:20300105\r\n');
    expect(parseFeed(result.stdout).events[2]!.summary).toBe('Dated · E03');
  });
});
