import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusedBeforeAnyRequest, startTestBed, type TestBed } from './harness.js';

let bed: TestBed;
let listId: string;

beforeAll(async () => {
  bed = await startTestBed({ entries: 120, rateLimit: 0 });
  const lists = JSON.parse((await bed.lk(['lists', '--all', '--json'])).stdout) as Array<{ id: string }>;
  listId = lists[0]!.id;
});

afterAll(async () => {
  await bed.sandbox.close();
});

/** Every read command, with arguments that give a few items (paged ones limited to keep output small). */
const COMMANDS: Array<{ name: string; args: () => string[]; listing: boolean }> = [
  { name: 'lists', args: () => ['lists'], listing: true },
  { name: 'lists show', args: () => ['lists', 'show', listId], listing: true },
  { name: 'calendar', args: () => ['calendar'], listing: true },
  { name: 'stats', args: () => ['stats'], listing: false },
  { name: 'reviews', args: () => ['reviews', '--limit', '5'], listing: true },
  { name: 'profile', args: () => ['profile'], listing: false },
  { name: 'profile achievements', args: () => ['profile', 'achievements', '--limit', '5'], listing: true },
  { name: 'notifications', args: () => ['notifications', '--limit', '5'], listing: true },
];

const ANSI = /\u001b\[[0-9;]*m/g;

describe.each(COMMANDS)('lk $name', ({ args, listing }) => {
  it('as a table 80 columns wide: no line wider, nothing "undefined"', async () => {
    const result = await bed.lk([...args(), '--format', 'table'], { env: { COLUMNS: '80' } });
    expect(result.code).toBe(0);
    const lines = result.stdout.replace(ANSI, '').trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(result.stdout).not.toMatch(/undefined|\[object Object\]/);
  });

  it('as json: parseable, an array for listings and an object otherwise', async () => {
    const result = await bed.lk([...args(), '--json']);
    expect(result.code).toBe(0);
    const value: unknown = JSON.parse(result.stdout);
    if (listing && args()[1] !== 'show') {
      expect(Array.isArray(value)).toBe(true);
      expect((value as unknown[]).length).toBeGreaterThan(0);
    } else {
      expect(value).toBeTypeOf('object');
      expect(Array.isArray(value)).toBe(false);
    }
  });

  it('as csv: a header and one row per item (one row for a single resource)', async () => {
    const result = await bed.lk([...args(), '--csv']);
    expect(result.code).toBe(0);
    const rows = parse(result.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(rows.length).toBeGreaterThan(0);
    if (!listing) expect(rows).toHaveLength(1);
    expect(result.stdout).not.toContain('undefined');
  });
});

describe('--json in a pipe: a single object is one compact line, as the README says', () => {
  const firstEntry = async () => (JSON.parse((await bed.lk(['library', '--limit', '1', '--json'])).stdout) as Array<{ id: string }>)[0]!.id;
  it.each([
    ['whoami', async () => ['whoami']],
    ['profile', async () => ['profile']],
    ['stats', async () => ['stats']],
    ['doctor', async () => ['doctor']],
    ['auth status', async () => ['auth', 'status']],
    ['library show', async () => ['library', 'show', await firstEntry()]],
  ])('lk %s', async (_name, args) => {
    const result = await bed.lk([...(await args()), '--json']);
    expect(result.stdout.endsWith('\n')).toBe(true);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(result.stdout)).toBeTypeOf('object');
  });
});

describe('listings agree across formats', () => {
  it('reviews: csv rows are the json items, in order', async () => {
    const json = JSON.parse((await bed.lk(['reviews', '--limit', '7', '--json'])).stdout) as Array<{ id: string; rating: number | null }>;
    const rows = parse((await bed.lk(['reviews', '--limit', '7', '--csv'])).stdout, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((row) => row.id)).toEqual(json.map((review) => review.id));
    expect(rows.map((row) => row.rating)).toEqual(json.map((review) => (review.rating === null ? '' : String(review.rating))));
  });

  it('notifications --all follows every page: as many as the envelope total', async () => {
    const first = JSON.parse((await bed.lk(['api', '/v1/notifications', '-F', 'limit=1'])).stdout) as { total: number };
    const all = JSON.parse((await bed.lk(['notifications', '--all', '--json'])).stdout) as unknown[];
    expect(all).toHaveLength(first.total);
  });

  it('--fields replaces the default columns in a table', async () => {
    const result = await bed.lk(['notifications', '--limit', '3', '--format', 'table', '--fields', 'id,kind']);
    const [header, ...rows] = result.stdout.trimEnd().split('\n');
    expect(header!.split(/\s+/)).toEqual(['ID', 'KIND']);
    expect(rows).toHaveLength(3);
  });

  it('in a pipe, a listing with more pages says nothing on stderr', async () => {
    const result = await bed.lk(['reviews', '--limit', '2']);
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(2);
    expect(result.stderr).toBe('');
  });
});

describe('lk calendar', () => {
  it('--json holds at most 60 episodes, all from today to 90 days ahead, none from dropped shows', async () => {
    const result = await bed.lk(['calendar', '--json']);
    expect(result.code).toBe(0);
    const items = JSON.parse(result.stdout) as Array<{ airsAt: string; show: { id: string } }>;
    expect(items.length).toBeGreaterThan(0);
    expect(items.length).toBeLessThanOrEqual(60);
    const now = Date.now();
    const startOfToday = Math.floor(now / 86_400_000) * 86_400_000;
    for (const item of items) {
      const airs = Date.parse(item.airsAt);
      expect(airs).toBeGreaterThanOrEqual(startOfToday);
      expect(airs).toBeLessThanOrEqual(now + 90 * 86_400_000 + 60_000);
    }
    const library = JSON.parse((await bed.lk(['library', '--all', '--json'])).stdout) as Array<{ phase: string; work: { id: string } }>;
    const dropped = new Set(library.filter((entry) => entry.phase === 'DROPPED').map((entry) => entry.work.id));
    const followed = new Set(library.filter((entry) => entry.phase !== 'DROPPED').map((entry) => entry.work.id));
    for (const item of items) {
      expect(dropped.has(item.show.id)).toBe(false);
      expect(followed.has(item.show.id)).toBe(true);
    }
  });

  it('a table shows episodes as S01E02 and the air time in the local zone', async () => {
    const json = JSON.parse((await bed.lk(['calendar', '--json'])).stdout) as Array<{ airsAt: string; season: number; episode: number }>;
    const result = await bed.lk(['calendar', '--format', 'table'], { env: { TZ: 'Asia/Tokyo', COLUMNS: '120' } });
    const firstRow = result.stdout.split('\n')[1]!;
    const first = json[0]!;
    const tokyo = new Date(Date.parse(first.airsAt) + 9 * 3_600_000).toISOString();
    expect(firstRow.startsWith(`${tokyo.slice(0, 10)} ${tokyo.slice(11, 16)}`)).toBe(true);
    expect(firstRow).toContain(`S${String(first.season).padStart(2, '0')}E${String(first.episode).padStart(2, '0')}`);
  });
});

describe('lk lists show', () => {
  it('has a Type column saying work, season or episode', async () => {
    const lists = JSON.parse((await bed.lk(['lists', '--all', '--json'])).stdout) as Array<{ id: string }>;
    const types = new Set<string>();
    for (const { id } of lists) {
      const result = await bed.lk(['lists', 'show', id, '--format', 'table'], { env: { COLUMNS: '200' } });
      const [header, ...rows] = result.stdout.trimEnd().split('\n');
      const typeAt = header!.indexOf('TYPE');
      expect(typeAt).toBeGreaterThanOrEqual(0);
      for (const row of rows) types.add(row.slice(typeAt).split(/\s+/)[0]!);
      if (types.has('season') && types.has('episode')) break;
    }
    expect([...types].every((type) => ['work', 'season', 'episode'].includes(type))).toBe(true);
    expect(types).toEqual(new Set(['work', 'season', 'episode']));
  });

  it('--json prints the list itself, with its items', async () => {
    const list = JSON.parse((await bed.lk(['lists', 'show', listId, '--json'])).stdout) as { id: string; items: unknown[] };
    expect(list.id).toBe(listId);
    expect(Array.isArray(list.items)).toBe(true);
  });

  it('an unknown list id exits 6 naming it', async () => {
    const result = await bed.lk(['lists', 'show', 'nosuchlist']);
    expect(result.code).toBe(6);
    expect(result.stderr).toContain('no list nosuchlist');
  });
});

describe('errors and validation', () => {
  it('stats --domain GAMES for an account with GAMES disabled exits 4 naming the domain', async () => {
    const result = await bed.lk(['stats', '--domain', 'GAMES'], { key: 'nogames' });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('GAMES');
  });

  it('a key without lists:read exits 4 naming the scope', async () => {
    const result = await bed.lk(['lists'], { key: 'library' });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('lists:read');
  });

  it.each([
    [['reviews', '--limit', '0']],
    [['reviews', '--domain', 'FILMS']],
    [['notifications', '--page', '0']],
    [['profile', 'achievements', '--max', 'x']],
    [['calendar', '--domain', 'gamez']],
    [['stats', '--domain', 'X']],
    [['lists', 'show', '../me']],
    [['lists', '--lang', 'de']],
  ])('lk %j exits 2 and the sandbox receives nothing', async (args) => {
    await expectRefusedBeforeAnyRequest(bed, args);
  });
});

describe('--help', () => {
  it.each([
    'lists',
    'lists show',
    'calendar',
    'stats',
    'reviews',
    'profile',
    'profile achievements',
    'notifications',
    'api',
    'config',
    'config set',
    'whoami',
    'library',
    'history',
    'auth status',
  ])('lk %s --help has a purpose, options and examples with a jq pipeline or a cron line', async (name) => {
    const command = name.split(' ');
    const result = await bed.lk([...command, '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: lk /);
    expect(result.stdout).toContain('Examples:');
    const examples = result.stdout.slice(result.stdout.indexOf('Examples:'));
    expect(examples.split('\n').filter((line) => line.startsWith('  ')).length).toBeGreaterThanOrEqual(2);
    expect(examples).toMatch(/\| jq |\* \* /);
  });
});
