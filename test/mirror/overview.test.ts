import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NextItem as OverviewItem } from '../../src/overview/next.js';
import { seededIndex } from '../../src/overview/seed.js';
import { expectRefusedBeforeAnyRequest, startTestBed, type RunResult, type TestBed } from '../e2e/harness.js';
import { tempDir } from '../support/temp-dir.js';
import { describeWithoutSqlite, hasSqlite, itWithSqlite, itWithoutSqlite } from '../support/sqlite-node.js';

// Issue 37: lk next and lk status, online against the sandbox and offline from a mirror of it. What they answer is
// checked against the sandbox's own data, read here straight from its API (every page), never against lk itself.

const DAY = 86_400_000;
const schemaFile = new URL('../../schemas/status.schema.json', import.meta.url);
const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as object;
const validateStatus = new Ajv({
  allErrors: true,
  strict: true,
  formats: { 'date-time': (text: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(text) && !Number.isNaN(Date.parse(text)) },
}).compile(schema);

/** lk next's --json items (src/overview/next.ts), their entry read as the sandbox sends it. */
type NextItem = Omit<OverviewItem, 'entry'> & { entry: { id: string; phase?: string; status?: string; work: { title: string } } };

interface Status {
  generatedAt: string;
  inProgress: { total: number; byDomain: Record<string, number> };
  activity: { last7Days: number; last30Days: number; thisYear: number };
  upcoming: { entryId: string; airsAt: string }[];
  notifications: { latest: { id: string }[] };
  mirror: { syncedAt: string | null } | null;
}

/** The sandbox's clock and lk's: moved by the tests, so that events land exactly where they want them. */
let now = Date.now();
const clock = () => now;

async function api(bed: TestBed, path: string, query: Record<string, string | number> = {}): Promise<Record<string, unknown>> {
  const url = new URL(path, bed.sandbox.url);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, String(value));
  const response = await fetch(url, { headers: { authorization: `Bearer ${bed.sandbox.key('full')}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

/** Every item of a listing, page after page. */
async function everything<T>(bed: TestBed, path: string, query: Record<string, string> = {}): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page += 1) {
    const body = await api(bed, path, { ...query, page, limit: 100 });
    items.push(...(body.items as T[]));
    if (!body.hasMore) return items;
  }
}

/**
 * The field paths the "On your dashboard" snippets of docs/next-status.md read: Home Assistant's value_json.PATH and json_attributes,
 * homepage's `field: { a: b }`, Glance's .JSON.Int "PATH" (and, inside `range .JSON.Array "upcoming"`, each item's).
 */
function dashboardPaths(): string[] {
  const guide = readFileSync(new URL('../../docs/next-status.md', import.meta.url), 'utf8');
  const section = /^## On your dashboard\n([\s\S]*?)(?:\n## |(?![\s\S]))/m.exec(guide)![1]!;
  const paths = new Set<string>();
  for (const [, path] of section.matchAll(/value_json\.([\w.]+)/g)) paths.add(path!);
  for (const [, list] of section.matchAll(/json_attributes:\n((?:\s+- \w+\n)+)/g)) for (const [, key] of list!.matchAll(/- (\w+)/g)) paths.add(key!);
  for (const [, a, b] of section.matchAll(/field: \{ (\w+): (\w+) \}/g)) paths.add(`${a}.${b}`);
  for (const [, path] of section.matchAll(/\.JSON\.\w+ "([\w.]+)"/g)) paths.add(path!);
  for (const [, body] of section.matchAll(/range \.JSON\.Array "upcoming" \}\}([\s\S]*?)\{\{ end/g)) {
    for (const [, field] of body!.matchAll(/\.\w+ "(\w+)"/g)) paths.add(`upcoming.${field}`);
  }
  return [...paths];
}

/** The schema of a dot path (through arrays' items), or undefined where the schema names no such field. */
function schemaAt(path: string): unknown {
  let node = schema as { properties?: Record<string, unknown>; items?: unknown; oneOf?: unknown[] };
  for (const part of path.split('.')) {
    if (node.items) node = node.items as typeof node;
    const holder = node.oneOf?.find((option) => (option as typeof node).properties) ?? node;
    const next = (holder as typeof node).properties?.[part];
    if (next === undefined) return undefined;
    node = next as typeof node;
  }
  return node;
}

const titleKey = (title: string) =>
  title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

function jsonOf<T>(result: RunResult): T {
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

/** Each sandbox's data folder (where lk status looks for the mirror), made with it in a beforeAll: kept to the file's end. */
const dataDirs = new WeakMap<TestBed, string>();

async function startBed(entries: number): Promise<TestBed> {
  const bed = await startTestBed({ entries, rateLimit: 0, exportIntervalSeconds: 0, now: clock });
  dataDirs.set(bed, tempDir('lk-overview-data-'));
  return bed;
}

/** lk with the tests' clock and the sandbox's own data folder. */
const lk = (bed: TestBed, args: string[], env: Record<string, string> = {}) =>
  bed.lk(args, { now: clock, env: { LK_DATA_DIR: dataDirs.get(bed)!, ...env } });

describe('lk next and lk status against the sandbox', () => {
  let bed: TestBed;
  let dataDir: string;

  beforeAll(async () => {
    bed = await startBed(200);
    dataDir = tempDir('lk-overview-');
  });
  afterAll(async () => {
    await bed.sandbox.close();
  });

  it('lists every entry in progress, newest dated event first, those with none last by title (all read from the sandbox)', async () => {
    const entries = await everything<{ id: string; work: { title: string } }>(bed, '/v1/library', { phase: 'IN_PROGRESS' });
    const expected = await Promise.all(
      entries.map(async (entry) => {
        const dates = (await everything<{ date: string | null }>(bed, `/v1/library/${entry.id}/history`)).flatMap((event) =>
          event.date === null ? [] : [Date.parse(event.date)],
        );
        return { id: entry.id, key: titleKey(entry.work.title), last: dates.length === 0 ? null : Math.max(...dates) };
      }),
    );
    expected.sort((a, b) => (b.last ?? -Infinity) - (a.last ?? -Infinity) || (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id < b.id ? -1 : 1));
    expect(expected.length).toBeGreaterThan(20);

    const all = jsonOf<NextItem[]>(await lk(bed, ['next', '--all', '--json']));
    expect(all.map((item) => item.id)).toEqual(expected.map((entry) => entry.id));
    expect(all.map((item) => item.lastActivity)).toEqual(expected.map((entry) => (entry.last === null ? null : new Date(entry.last).toISOString())));
    for (const item of all) expect(item.entry.id).toBe(item.id);

    const first = jsonOf<NextItem[]>(await lk(bed, ['next', '--json']));
    expect(first).toEqual(all.slice(0, 20));
  });

  it('a new event moves its entry first', async () => {
    const before = jsonOf<NextItem[]>(await lk(bed, ['next', '--all', '--json']));
    const last = before.at(-1)!;
    now += 60_000;
    bed.sandbox.addEvent('demo', last.id);
    const after = jsonOf<NextItem[]>(await lk(bed, ['next', '--json', '--limit', '3']));
    expect(after[0]!.id).toBe(last.id);
    expect(after[0]!.lastActivity).toBe(new Date(now).toISOString());
    expect(after.slice(1).map((item) => item.id)).toEqual(before.slice(0, 2).map((item) => item.id));
  });

  it("shows' episodesBehind and next airing are the calendar's", async () => {
    const calendar = (await api(bed, '/v1/calendar')).items as { entryId: string; episodesBehind: number; airsAt: string }[];
    const items = jsonOf<NextItem[]>(await lk(bed, ['next', '--all', '--json']));
    const inCalendar = items.filter((item) => calendar.some((episode) => episode.entryId === item.id));
    expect(inCalendar.length).toBeGreaterThan(0);
    for (const item of inCalendar) {
      const episodes = calendar.filter((episode) => episode.entryId === item.id);
      expect(item.episodesBehind).toBe(episodes[0]!.episodesBehind);
      const upcoming = episodes.map((episode) => Date.parse(episode.airsAt)).filter((at) => at >= now);
      expect(item.nextAiring).toBe(upcoming.length === 0 ? null : new Date(Math.min(...upcoming)).toISOString());
    }
    for (const item of items.filter((item) => item.domain !== 'MEDIA')) expect(item.episodesBehind).toBeNull();
  });

  it('--domain narrows the list to that domain', async () => {
    const books = jsonOf<NextItem[]>(await lk(bed, ['next', '--all', '--domain', 'books', '--json']));
    const all = jsonOf<NextItem[]>(await lk(bed, ['next', '--all', '--json']));
    expect(books.length).toBeGreaterThan(0);
    expect(books).toEqual(all.filter((item) => item.domain === 'BOOKS'));
  });

  it('costs the library pages, the history pages it needs and the calendar once; lk status about seven requests', async () => {
    const history = (await api(bed, '/v1/history', { limit: 1 })).total as number;
    bed.sandbox.resetCounters();
    jsonOf(await lk(bed, ['next', '--json']));
    const { byPath, requests } = bed.sandbox.counters;
    expect(byPath['/v1/calendar']).toBe(1);
    expect(byPath['/v1/history'] ?? 0).toBeLessThanOrEqual(Math.ceil(history / 100));
    expect(requests).toBeLessThanOrEqual(1 + 2 + Math.ceil(history / 100));
    bed.sandbox.resetCounters();
    jsonOf(await lk(bed, ['status', '--json']));
    expect(bed.sandbox.counters.byPath['/v1/calendar']).toBe(1);
    expect(bed.sandbox.counters.requests).toBeLessThanOrEqual(8);
  });

  it('--random picks a PLANNED entry, the same one for the same seed', async () => {
    const [pick] = jsonOf<NextItem[]>(await lk(bed, ['next', '--random', '--seed', '7', '--json']));
    expect(pick!.entry.phase).toBe('PLANNED');
    const again = jsonOf<NextItem[]>(await lk(bed, ['next', '--random', '--seed', '7', '--json']));
    expect(again).toEqual([pick]);
    const books = jsonOf<NextItem[]>(await lk(bed, ['next', '--random', '--domain', 'BOOKS', '--json']));
    expect(books).toHaveLength(1);
    expect(books[0]!.domain).toBe('BOOKS');
  });

  it("status counts dated events by the sandbox's own data, one second inside the 7-day window counted, one outside not", async () => {
    const t0 = now;
    const before = jsonOf<Status>(await lk(bed, ['status', '--json']));
    const [entry] = bed.sandbox.entryIds('demo');
    now = t0 - 7 * DAY + 1000;
    bed.sandbox.addEvent('demo', entry!);
    now = t0 - 7 * DAY - 1000;
    bed.sandbox.addEvent('demo', entry!);
    now = t0;
    const after = jsonOf<Status>(await lk(bed, ['status', '--json']));
    expect(after.activity.last7Days - before.activity.last7Days).toBe(1);
    expect(after.activity.last30Days - before.activity.last30Days).toBe(2);

    const dates = (await everything<{ date: string }>(bed, '/v1/history')).map((event) => Date.parse(event.date));
    const since = (from: number) => dates.filter((at) => at >= from && at <= t0).length;
    const year = new Date(t0).getUTCFullYear();
    expect(after.activity).toEqual({ last7Days: since(t0 - 7 * DAY), last30Days: since(t0 - 30 * DAY), thisYear: since(Date.UTC(year, 0, 1)) });
    expect(after.generatedAt).toBe(new Date(t0).toISOString());
  });

  it('this year is the local one: with TZ=Asia/Tokyo it starts nine hours before the UTC new year', async () => {
    const t0 = now;
    const year = Number(new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Tokyo', year: 'numeric' }).format(t0));
    const tokyoNewYear = Date.UTC(year - 1, 11, 31, 15);
    now = tokyoNewYear + 3_600_000;
    bed.sandbox.addEvent('demo', bed.sandbox.entryIds('demo')[1]!);
    now = t0;
    const dates = (await everything<{ date: string }>(bed, '/v1/history')).map((event) => Date.parse(event.date));
    const since = (from: number) => dates.filter((at) => at >= from && at <= t0).length;
    const tokyo = jsonOf<Status>(await lk(bed, ['status', '--json'], { TZ: 'Asia/Tokyo' }));
    const utc = jsonOf<Status>(await lk(bed, ['status', '--json'], { TZ: 'UTC' }));
    expect(tokyo.activity.thisYear).toBe(since(tokyoNewYear));
    expect(utc.activity.thisYear).toBe(since(Date.UTC(year, 0, 1)));
    expect(tokyo.activity.thisYear).toBeGreaterThan(utc.activity.thisYear);
  });

  it('status --json validates against schemas/status.schema.json, which --json-schema prints', async () => {
    const status = jsonOf<Status>(await lk(bed, ['status', '--json']));
    expect(validateStatus(status), JSON.stringify(validateStatus.errors)).toBe(true);
    const inProgress = await everything<unknown>(bed, '/v1/library', { phase: 'IN_PROGRESS' });
    expect(status.inProgress.total).toBe(inProgress.length);
    expect(Object.values(status.inProgress.byDomain).reduce((a, b) => a + b, 0)).toBe(inProgress.length);
    const notifications = (await api(bed, '/v1/notifications', { limit: 5 })).items as { id: string }[];
    expect(status.notifications.latest.map((item) => item.id)).toEqual(notifications.map((item) => item.id));
    for (const episode of status.upcoming) expect(Date.parse(episode.airsAt)).toBeGreaterThanOrEqual(now);
    expect(jsonOf(await lk(bed, ['status', '--json-schema']))).toEqual(schema);
  });

  it("docs/next-status.md's dashboard snippets read only fields the schema names, each present in a real status", async () => {
    // With a mirror where this Node reads one (its syncedAt), else mirror is null and the snippets show it blank.
    if (hasSqlite) expect((await lk(bed, ['sync', '-q'])).code).toBe(0);
    const status = jsonOf<Status>(await lk(bed, ['status', '--json']));
    const paths = dashboardPaths();
    expect(paths.length).toBeGreaterThan(8);
    for (const path of paths) {
      expect(schemaAt(path), `${path} in schemas/status.schema.json`).toBeDefined();
      const top = path.split('.')[0]!;
      expect(status, path).toHaveProperty(top);
    }
    const optional = (path: string) => path.startsWith('upcoming.') || (status.mirror === null && path.startsWith('mirror.'));
    for (const path of paths.filter((path) => !optional(path))) expect(status, path).toHaveProperty(path);
  });

  it('refuses bad input before any request (exit 2)', async () => {
    for (const args of [
      ['next', '--limit', '0'],
      ['next', '--all', '--limit', '5'],
      ['next', '--seed', '3'],
      ['next', '--random', '--seed', 'x'],
      ['next', '--random', '--all'],
      ['next', '--domain', 'PODCASTS'],
      ['status', '--csv'],
      ['status', '--ndjson'],
    ]) {
      await expectRefusedBeforeAnyRequest(bed, args);
    }
  });

  itWithoutSqlite(`--offline on Node ${process.versions.node} (no node:sqlite) exits 1 with one line naming Node 22.13`, async () => {
    for (const args of [
      ['next', '--offline'],
      ['status', '--offline'],
    ]) {
      const result = await lk(bed, [...args, '--db', join(dataDir, 'none.db')]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr.split('\n')[0]).toMatch(/^lk: lk (next|status) --offline needs Node 22\.13 or later/);
    }
  });
  itWithSqlite('--offline answers as online after a sync: lk next, lk next --random --seed, lk status', async () => {
    const db = join(dataDir, 'mirror.db');
    expect((await lk(bed, ['sync', '--db', db])).code).toBe(0);
    for (const args of [
      ['next', '--all', '--json'],
      ['next', '--domain', 'MEDIA', '--limit', '5', '--json'],
      ['next', '--random', '--seed', '11', '--json'],
      ['next', '--random', '--seed', '12', '--domain', 'GAMES', '--json'],
      ['status', '--json', '--db', db],
    ]) {
      const online = await lk(bed, args);
      const offline = await lk(bed, [...args, '--offline', ...(args.includes('--db') ? [] : ['--db', db])]);
      expect(offline.code, offline.stderr).toBe(0);
      expect(offline.stdout, args.join(' ')).toBe(online.stdout);
    }
    const status = jsonOf<Status>(await lk(bed, ['status', '--json', '--offline', '--db', db]));
    expect(validateStatus(status), JSON.stringify(validateStatus.errors)).toBe(true);
    expect(status.mirror?.syncedAt).toBe(new Date(now).toISOString());
  });
});

describe('lk next --random on a small library', () => {
  let bed: TestBed;
  let db: string;

  beforeAll(async () => {
    bed = await startBed(40);
    db = join(tempDir('lk-random-'), 'small.db');
    if (hasSqlite) expect((await lk(bed, ['sync', '--db', db])).code).toBe(0);
  });
  afterAll(async () => {
    await bed.sandbox.close();
  });

  // The spread is the seeded index's, over 1,000 seeds; that lk picks by it, in the library's order, is checked for 40
  // of them through lk (from the mirror, whose picks are online's: shown above; online where this Node has no
  // node:sqlite). A thousand runs of lk showed no more than those 40 do, at 25 times the cost.
  it('over 1,000 seeds picks every PLANNED entry, none more than 3 times as often as another', async () => {
    const planned = await everything<{ id: string }>(bed, '/v1/library', { phase: 'PLANNED' });
    expect(planned.length).toBeGreaterThan(3);
    const counts = new Map<string, number>();
    for (let seed = 0; seed < 1000; seed += 1) {
      const id = planned[seededIndex(seed, planned.length)]!.id;
      if (seed < 40) {
        const where = hasSqlite ? ['--offline', '--db', db] : [];
        expect(jsonOf<NextItem[]>(await lk(bed, ['next', '--random', '--seed', String(seed), ...where, '--json', '-q']))[0]!.id, `seed ${seed}`).toBe(
          id,
        );
      }
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual(planned.map((entry) => entry.id).sort());
    expect(Math.max(...counts.values())).toBeLessThanOrEqual(3 * Math.min(...counts.values()));
  }, 300_000);

  it('an empty choice says so and exits 0', async () => {
    for (const entry of await everything<{ id: string; work: { domain: string } }>(bed, '/v1/library', { phase: 'PLANNED', domain: 'MUSIC' })) {
      bed.sandbox.removeEntry('demo', entry.id);
    }
    const plain = await lk(bed, ['next', '--random', '--domain', 'MUSIC']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe('');
    expect(plain.stderr).toMatch(/^lk: nothing to pick: no planned entry in MUSIC$/m);
    expect(jsonOf(await lk(bed, ['next', '--random', '--domain', 'MUSIC', '--json']))).toEqual([]);
  });
});

describeWithoutSqlite(`lk status on Node ${process.versions.node}, which cannot read a mirror (issue 44)`, () => {
  let bed: TestBed;

  beforeAll(async () => {
    bed = await startBed(20);
  });
  afterAll(async () => {
    await bed.sandbox.close();
  });

  it('--json: mirror null without one; with one, {syncedAt: null, readable: false, needsNode: "22.13"}, valid by the schema', async () => {
    expect(jsonOf<Status>(await lk(bed, ['status', '--json'])).mirror).toBeNull();
    // A mirror as a sync on a newer Node leaves it: this Node only sees that it is there.
    writeFileSync(join(dataDirs.get(bed)!, 'default.db'), Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(4080)]));
    const status = jsonOf<Status>(await lk(bed, ['status', '--json']));
    expect(status.mirror).toEqual({ syncedAt: null, readable: false, needsNode: '22.13' });
    expect(validateStatus(status), JSON.stringify(validateStatus.errors)).toBe(true);
  });

  it('the screen says the mirror is there, the Node it needs, and the single file or a newer Node', async () => {
    writeFileSync(join(dataDirs.get(bed)!, 'default.db'), Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(4080)]));
    const result = await lk(bed, ['status']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(/No local mirror/);
    expect(result.stdout).toContain(`Mirror here, but reading it needs Node 22.13 or later (this is ${process.versions.node}).`);
    expect(result.stdout).toMatch(
      /lk's single file, which carries its own Node \(the release binary `lk`, or `npm run sea`.*\), or install Node 22\.13 or later \(https:\/\/nodejs\.org/,
    );
  });
});
