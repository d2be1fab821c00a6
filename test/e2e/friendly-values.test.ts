import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusedBeforeAnyRequest, startTestBed, type TestBed } from './harness.js';

let bed: TestBed;

beforeAll(async () => {
  bed = await startTestBed({ entries: 60, rateLimit: 0 });
});

afterAll(async () => {
  await bed.sandbox.close();
});

/** The query of the first request, as -v prints it (`lk: GET /v1/history?from=… → 200 …`). */
async function sentQuery(args: string[], env: Record<string, string> = {}): Promise<URLSearchParams> {
  const run = await bed.lk([...args, '-v'], { env });
  expect(run.code, run.stderr).toBe(0);
  const path = /^lk: GET (\S+)/m.exec(run.stderr)?.[1];
  expect(path).toBeDefined();
  return new URL(path!, 'http://x').searchParams;
}

describe('enumerated values in any case, sent as the spec spells them', () => {
  it('--phase done --domain books --sort Rating --order ASC --lang EN', async () => {
    const query = await sentQuery([
      'library',
      '--json',
      '--phase',
      'done',
      '--domain',
      'books',
      '--sort',
      'Rating',
      '--order',
      'ASC',
      '--lang',
      'EN',
    ]);
    expect(Object.fromEntries(query)).toMatchObject({ phase: 'DONE', domain: 'BOOKS', sort: 'rating', order: 'asc', lang: 'en' });
  });

  it('--phase in_progress and in-progress both mean IN_PROGRESS, with the same entries as IN_PROGRESS', async () => {
    expect((await sentQuery(['library', '--json', '--phase', 'in_progress'])).get('phase')).toBe('IN_PROGRESS');
    expect((await sentQuery(['library', '--json', '--phase', 'In-Progress'])).get('phase')).toBe('IN_PROGRESS');
    const friendly = await bed.lk(['library', '--all', '--json', '--phase', 'in-progress']);
    const exact = await bed.lk(['library', '--all', '--json', '--phase', 'IN_PROGRESS']);
    expect(friendly.stdout).toBe(exact.stdout);
    expect(JSON.parse(exact.stdout)).not.toEqual([]);
  });

  it('--format JSON and --domain Media on history', async () => {
    const run = await bed.lk(['history', '--format', 'JSON', '--domain', 'Media', '--limit', '2']);
    expect(run.code).toBe(0);
    expect(Array.isArray(JSON.parse(run.stdout))).toBe(true);
  });

  it('a value that is none of them is a usage error naming the allowed ones, before any request', async () => {
    await expectRefusedBeforeAnyRequest(bed, ['library', '--phase', 'finished']);
    const run = await bed.lk(['library', '--domain', 'films']);
    expect(run.stderr).toContain('MEDIA, GAMES, BOOKS, MUSIC');
    await expectRefusedBeforeAnyRequest(bed, ['library', '--lang', 'DE']);
  });

  it('--help and the completion scripts still list the choices', async () => {
    const help = await bed.lk(['library', 'list', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('only entries in this phase (choices: "PLANNED", "IN_PROGRESS", "DONE", "DROPPED")');
    const bash = await bed.lk(['completion', 'bash']);
    expect(bash.stdout).toContain('PLANNED IN_PROGRESS DONE DROPPED');
    expect(bash.stdout).toContain('en fr it');
  });

  it('lk config set lang FR stores fr', async () => {
    expect((await bed.lk(['config', 'set', 'lang', 'FR'])).code).toBe(0);
    const get = await bed.lk(['config', 'get', 'lang']);
    expect(get.stdout.trim()).toBe('fr');
    await bed.lk(['config', 'unset', 'lang']);
  });
});

describe('--from/--to: relative and local dates', () => {
  const DAY = 86_400_000;

  it.each([
    ['7d', 7 * DAY],
    ['2w', 14 * DAY],
    ['12h', DAY / 2],
  ])('--from %s is that long before now', async (raw, ago) => {
    const before = Date.now();
    const from = (await sentQuery(['history', '--json', '--from', raw])).get('from')!;
    expect(from).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(from)).toBeGreaterThanOrEqual(before - ago);
    expect(Date.parse(from)).toBeLessThanOrEqual(Date.now() - ago);
  });

  it('today and yesterday are local days, whole (TZ=Asia/Tokyo: midnight is 15:00 UTC)', async () => {
    const env = { TZ: 'Asia/Tokyo' };
    const today = await sentQuery(['history', '--json', '--from', 'today', '--to', 'today'], env);
    expect(today.get('from')).toMatch(/T15:00:00\.000Z$/);
    expect(today.get('to')).toMatch(/T14:59:59\.999Z$/);
    expect(Date.parse(today.get('to')!) - Date.parse(today.get('from')!)).toBe(DAY - 1);
    const yesterday = await sentQuery(['history', '--json', '--from', 'yesterday', '--to', 'yesterday'], env);
    expect(Date.parse(today.get('from')!) - Date.parse(yesterday.get('from')!)).toBe(DAY);
    expect(Date.parse(yesterday.get('to')!)).toBe(Date.parse(today.get('from')!) - 1);
  });

  it('a date-time without seconds or zone is local time; with a zone it is sent as typed', async () => {
    const local = await sentQuery(['history', '--json', '--from', '2026-01-01T10:00', '--to', '2026-01-02T08:30:15'], { TZ: 'America/New_York' });
    expect(local.get('from')).toBe('2026-01-01T15:00:00.000Z');
    expect(local.get('to')).toBe('2026-01-02T13:30:15.000Z');
    const zoned = await sentQuery(['history', '--json', '--from', '2026-01-01T10:00+02:00'], { TZ: 'America/New_York' });
    expect(zoned.get('from')).toBe('2026-01-01T10:00+02:00');
  });

  it('an impossible or unknown date is a usage error before any request', async () => {
    await expectRefusedBeforeAnyRequest(bed, ['history', '--from', '2026-02-30T10:00']);
    await expectRefusedBeforeAnyRequest(bed, ['history', '--from', 'last week']);
    await expectRefusedBeforeAnyRequest(bed, ['history', '--from', 'today', '--to', 'yesterday']);
  });
});

describe('lk api NAME means /v1/NAME', () => {
  it('lk api me asks for /v1/me', async () => {
    expect((await bed.lk(['api', 'me', '-v'])).stderr).toMatch(/^lk: GET \/v1\/me → 200/m);
    const short = await bed.lk(['api', 'me']);
    const full = await bed.lk(['api', '/v1/me']);
    expect(short.code).toBe(0);
    expect((JSON.parse(short.stdout) as { account: unknown }).account).toEqual((JSON.parse(full.stdout) as { account: unknown }).account);
  });

  it('lk api library with a query is /v1/library with it', async () => {
    const query = await sentQuery(['api', 'library?limit=3', '-F', 'phase=DONE']);
    expect(Object.fromEntries(query)).toMatchObject({ limit: '3', phase: 'DONE' });
    const run = await bed.lk(['api', 'library?limit=3']);
    expect((JSON.parse(run.stdout) as { items: unknown[] }).items).toHaveLength(3);
  });

  it('a completed path is checked like a typed one: lk api ../x is still refused', async () => {
    await expectRefusedBeforeAnyRequest(bed, ['api', 'library/../../etc']);
  });
});
