import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportFigures } from '../../src/report/figures.js';
import { startTestBed, type TestBed } from '../e2e/harness.js';
import { describeWithSqlite, describeWithoutSqlite, mirrorRows } from '../support/sqlite-node.js';

// `lk report` against plain SQL on the same mirror (node:sqlite itself, mirrorRows: lk sql has tests of its own): every
// figure of --json (which the page draws, see report-browser.test.ts) recomputed, for the sandbox and for the alt
// variant (other field names, UUID ids, read from the paginated endpoints). Run under each Node of the matrix, as mirror.test.ts is.

const DOMAINS = ['MEDIA', 'GAMES', 'BOOKS', 'MUSIC'] as const;

let dir: string;
const beds: TestBed[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lk-report-'));
});

afterAll(async () => {
  await Promise.all(beds.map((bed) => bed.sandbox.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function bedOf(options: Parameters<typeof startTestBed>[0]): Promise<TestBed> {
  const bed = await startTestBed({ entries: 150, rateLimit: 0, exportIntervalSeconds: 0, ...options });
  beds.push(bed);
  return bed;
}

/** The UTC instant of local midnight on the first of a month, found by stepping a quarter-hour at a time (Intl only). */
function localMonthStart(zone: string, year: number, month: number): string {
  return localDayStart(zone, `${year}-${String(month).padStart(2, '0')}-01`);
}

/** The UTC instant of local midnight starting a day (YYYY-MM-DD). */
function localDayStart(zone: string, wanted: string): string {
  const format = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const [year, month, day] = wanted.split('-').map(Number) as [number, number, number];
  const noon = Date.UTC(year, month - 1, day, 12);
  for (let t = noon - 27 * 3_600_000; t <= noon; t += 15 * 60_000) if (format.format(new Date(t)) === wanted) return new Date(t).toISOString();
  throw new Error(`no midnight found for ${wanted} in ${zone}`);
}

function yearBounds(zone: string, year: number): string[] {
  return Array.from({ length: 13 }, (_, index) => localMonthStart(zone, year + Math.floor(index / 12), (index % 12) + 1));
}

/** SQL for the month (0 to 11) of a date column, from the month starts. */
const monthCase = (column: string, bounds: string[]) =>
  `CASE ${bounds
    .slice(1)
    .map((bound, index) => `WHEN ${column} < '${bound}' THEN ${index}`)
    .join(' ')} END`;

const EVENTS = `history h LEFT JOIN entries e ON e.id = h.entry_id LEFT JOIN works w ON w.id = coalesce(h.work_id, e.work_id)`;
const DOMAIN = 'coalesce(e.domain, w.domain)';

function reportSuite(name: string, zone: string, setUp: () => Promise<{ bed: TestBed; db: string; env: Record<string, string> }>): void {
  describe(name, () => {
    let bed: TestBed;
    let db: string;
    let env: Record<string, string>;
    let year: number;
    let figures: ReportFigures;
    let bounds: string[];

    const sql = (query: string): Promise<Record<string, unknown>[]> => Promise.resolve(mirrorRows(db, query));
    const window = (column: string) => `${column} >= '${bounds[0]}' AND ${column} < '${bounds[12]}'`;

    beforeAll(async () => {
      ({ bed, db, env } = await setUp());
      // The sandbox's busiest year (by dated events), as the report's default would not be on every date.
      const [busiest] = await sql(
        'SELECT substr(date, 1, 4) AS year, count(*) AS n FROM history WHERE date IS NOT NULL GROUP BY 1 ORDER BY n DESC, year DESC LIMIT 1',
      );
      year = Number(busiest!.year);
      const result = await bed.lk(['report', '--db', db, '--year', String(year), '--json'], { env });
      expect(result.code, result.stderr).toBe(0);
      figures = JSON.parse(result.stdout) as ReportFigures;
      bounds = yearBounds(figures.timeZone, year);
    });

    it(`counts days, months and weekdays in ${zone}`, () => {
      expect(figures.timeZone).toBe(zone);
    });

    it('events and time spent by month, per domain and in total, equal SQL on the mirror', async () => {
      const rows = await sql(
        `SELECT ${DOMAIN} AS domain, ${monthCase('h.date', bounds)} AS month, count(*) AS events,
                sum(json_extract(h.json, '$.minutes')) AS minutes, sum(json_extract(h.json, '$.pages')) AS pages,
                sum(h.kind = 'ALBUM_FINISHED') AS albums
         FROM ${EVENTS} WHERE ${window('h.date')} GROUP BY 1, 2`,
      );
      const monthly = (field: string, domain?: string) =>
        Array.from({ length: 12 }, (_, month) =>
          rows
            .filter((row) => row.month === month && (domain === undefined || row.domain === domain))
            .reduce((sum, row) => sum + Number(row[field] ?? 0), 0),
        );
      expect(figures.total.events).toBeGreaterThan(0);
      expect(figures.total.eventsByMonth).toEqual(monthly('events'));
      expect(figures.total.timeByMonth).toEqual({ minutes: monthly('minutes'), pages: monthly('pages'), albums: monthly('albums') });
      const units = { MEDIA: 'minutes', GAMES: 'minutes', BOOKS: 'pages', MUSIC: 'albums' } as const;
      for (const domain of DOMAINS) {
        const mine = figures.domains[domain]!;
        expect(mine.eventsByMonth, domain).toEqual(monthly('events', domain));
        expect(mine.timeByMonth[units[domain]], domain).toEqual(monthly(units[domain], domain));
        expect(mine.events).toBe(monthly('events', domain).reduce((a, b) => a + b, 0));
      }
    });

    it('works finished by month equal SQL on the mirror', async () => {
      const rows = await sql(
        `SELECT domain, ${monthCase('finished_at', bounds)} AS month, count(*) AS n FROM entries WHERE ${window('finished_at')} GROUP BY 1, 2`,
      );
      const monthly = (domain?: string) =>
        Array.from({ length: 12 }, (_, month) =>
          rows.filter((row) => row.month === month && (domain === undefined || row.domain === domain)).reduce((sum, row) => sum + Number(row.n), 0),
        );
      expect(figures.total.finishedByMonth).toEqual(monthly());
      for (const domain of DOMAINS) expect(figures.domains[domain]!.finishedByMonth, domain).toEqual(monthly(domain));
    });

    it('rewatches, replays and rereads (cycles > 1) equal SQL on the mirror', async () => {
      const rows = await sql(
        `SELECT ${DOMAIN} AS domain, count(DISTINCT h.entry_id || '/' || h.cycle) AS n FROM ${EVENTS} WHERE h.cycle > 1 AND ${window('h.date')} GROUP BY 1`,
      );
      for (const domain of DOMAINS) expect(figures.domains[domain]!.repeats, domain).toBe(Number(rows.find((row) => row.domain === domain)?.n ?? 0));
    });

    it('the top-rated works and the rating distribution of the works active in the year equal SQL on the mirror', async () => {
      const active = `e.rating IS NOT NULL AND (e.id IN (SELECT entry_id FROM history WHERE ${window('date')}) OR (${window('e.finished_at')}))`;
      const top = await sql(`SELECT e.id, e.rating FROM entries e WHERE ${active} ORDER BY e.rating DESC, e.title_key, e.id LIMIT 10`);
      expect(top.length).toBeGreaterThan(0);
      expect(figures.total.topRated.map((work) => [work.entryId, work.rating])).toEqual(top.map((row) => [row.id, row.rating]));
      for (const work of figures.total.topRated) expect(work.url ?? '').toMatch(/^https?:\/\//);
      const ratings = await sql(`SELECT e.rating, count(*) AS n FROM entries e WHERE ${active} GROUP BY 1 ORDER BY 1`);
      expect(figures.total.ratings).toEqual(ratings.map((row) => ({ rating: row.rating, entries: row.n })));
    });

    it('undated events are counted apart, equal to SQL on the mirror, and in no month', async () => {
      const [undated] = await sql('SELECT count(*) AS n FROM history WHERE date IS NULL');
      expect(figures.undated.events).toBe(undated!.n);
      expect(figures.undated.events).toBeGreaterThan(0);
      const [dated] = await sql(`SELECT count(*) AS n FROM history h WHERE ${window('h.date')}`);
      expect(figures.total.eventsByMonth.reduce((a, b) => a + b, 0)).toBe(dated!.n);
    });

    it('the year before (its same days, for a year so far) equals SQL on the mirror', async () => {
      // A year so far (this year, through today) is compared with the same days of the year before, not all of it.
      const through = figures.period.through;
      expect(figures.previousPeriod).toEqual({ from: `${year - 1}-01-01`, to: through ? `${year - 1}${through.slice(4)}` : `${year - 1}-12-31` });
      const dayAfter = new Date(Date.parse(`${figures.previousPeriod.to}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      const before = [localDayStart(figures.timeZone, figures.previousPeriod.from), localDayStart(figures.timeZone, dayAfter)];
      const [events] = await sql(`SELECT count(*) AS n FROM history WHERE date >= '${before[0]}' AND date < '${before[1]}'`);
      const [finished] = await sql(`SELECT count(*) AS n FROM entries WHERE finished_at >= '${before[0]}' AND finished_at < '${before[1]}'`);
      expect(figures.total.previous.events).toBe(events!.n);
      expect(figures.total.previous.finished).toBe(finished!.n);
    });

    it('the busiest weekday, the longest streak and the first and last event, from the dates SQL on the mirror gives, in the account time zone', async () => {
      const rows = await sql(`SELECT h.date, coalesce(w.title, e.title) AS title FROM ${EVENTS} WHERE ${window('h.date')} ORDER BY h.date`);
      const day = new Intl.DateTimeFormat('en-CA', { timeZone: figures.timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
      const weekday = new Intl.DateTimeFormat('en-GB', { timeZone: figures.timeZone, weekday: 'long' });
      const names = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
      const counts = names.map((name) => rows.filter((row) => weekday.format(new Date(row.date as string)) === name).length);
      expect(figures.total.weekdays).toEqual(counts);
      expect(figures.total.busiestWeekday).toBe(counts.indexOf(Math.max(...counts)));
      const days = [...new Set(rows.map((row) => day.format(new Date(row.date as string))))].sort();
      let longest = 0;
      let run = 0;
      days.forEach((current, index) => {
        const previous = days[index - 1];
        run = previous !== undefined && Date.parse(current) - Date.parse(previous) === 86_400_000 ? run + 1 : 1;
        longest = Math.max(longest, run);
      });
      expect(figures.total.longestStreak?.days).toBe(longest);
      expect(figures.total.first).toMatchObject({ date: rows[0]!.date, title: rows[0]!.title });
      expect(figures.total.last?.date).toBe(rows.at(-1)!.date);
    });

    it('the HTML page holds the same numbers: its table of events by month', async () => {
      const file = join(dir, `${name.replace(/\W+/g, '-')}.html`);
      const result = await bed.lk(['report', '--db', db, '--year', String(year), '-o', file], { env });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(new RegExp(`lk: wrote ${file} \\(\\d+(\\.\\d+)? KiB\\)`));
      const html = readFileSync(file, 'utf8');
      const table = /<caption>Events by month<\/caption>[\s\S]*?<\/table>/.exec(html)![0];
      const totals = [...table.matchAll(/<tr><th scope="row">[^<]+<\/th>(?:<td class="n">[^<]*<\/td>)*<td class="n">([^<]*)<\/td><\/tr>/g)].map((m) =>
        Number(m[1]!.replace(/,/g, '')),
      );
      // A year so far shows its months up to the one it covers (figures.months still names all twelve).
      const through = figures.period.through;
      expect(totals).toEqual(figures.total.eventsByMonth.slice(0, through ? Number(through.slice(5, 7)) : 12));
    });
  });
}

describeWithoutSqlite(`on Node ${process.versions.node} (no node:sqlite)`, () => {
  it('lk report exits 1 with one line naming Node 22.13, and writes nothing', async () => {
    const bed = await bedOf({});
    const file = join(dir, 'none.html');
    const result = await bed.lk(['report', '--db', join(dir, 'none.db'), '-o', file]);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[0]).toMatch(/^lk: lk report needs Node 22\.13 or later/);
    expect(existsSync(file)).toBe(false);
  });
});

describeWithSqlite('lk report on a synced mirror', () => {
  reportSuite('lk report over the sandbox', 'Europe/London', async () => {
    const bed = await bedOf({});
    const db = join(dir, 'sandbox.db');
    const env = { LK_DATA_DIR: dir, LK_CACHE_DIR: join(dir, 'cache-sandbox') };
    const synced = await bed.lk(['sync', '--db', db], { env });
    expect(synced.code, synced.stderr).toBe(0);
    return { bed, db, env };
  });

  // The library key cannot export: the sync reads the alt server's pages (`type` for kind, no phase, finishedAt),
  // and, without profile:read, the mirror has no time zone: the report falls back to TZ.
  reportSuite(
    'lk report over a second implementation (alt variant: other field names, UUID ids, TZ America/New_York)',
    'America/New_York',
    async () => {
      const bed = await bedOf({ variant: 'alt' });
      const db = join(dir, 'alt.db');
      const env = { LK_DATA_DIR: dir, LK_CACHE_DIR: join(dir, 'cache-alt'), TZ: 'America/New_York', LK_API_KEY: bed.sandbox.key('library') };
      const synced = await bed.lk(['sync', '--db', db], { env });
      expect(synced.code, synced.stderr).toBe(0);
      const [ids] = mirrorRows(db, 'SELECT id, kind FROM history LIMIT 1');
      expect(ids!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
      return { bed, db, env };
    },
  );

  describe('lk report, what it refuses', () => {
    let bed: TestBed;
    let db: string;
    beforeAll(async () => {
      bed = await bedOf({});
      db = join(dir, 'refusals.db');
      expect((await bed.lk(['sync', '--db', db], { env: { LK_CACHE_DIR: join(dir, 'cache-refusals') } })).code).toBe(0);
    });

    it('a year without data: one clear line naming where the data is, exit 1, and no file (an existing one kept as it was)', async () => {
      const file = join(dir, 'kept.html');
      writeFileSync(file, 'the report of another year');
      const result = await bed.lk(['report', '--db', db, '--year', '1999', '-o', file]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        /^lk: nothing to review: the mirror holds no dated event and no finished work from 1999-01-01 to 1999-12-31\nIts dated events run from \d{4}-/,
      );
      expect(readFileSync(file, 'utf8')).toBe('the report of another year');
      const json = await bed.lk(['report', '--db', db, '--year', '1999', '--json']);
      expect(json.code).toBe(1);
      expect(json.stdout).toBe('');
    });

    it('no mirror: exit 1 naming lk sync, and no file', async () => {
      const file = join(dir, 'no-mirror.html');
      const result = await bed.lk(['report', '--db', join(dir, 'missing.db'), '-o', file]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^lk: no mirror at .*missing\.db\n.*lk sync/);
      expect(existsSync(file)).toBe(false);
    });

    it.each([
      [['--year', '25']],
      [['--year', '2025', '--from', '2025-01-01']],
      [['--to', '2025-01-01']],
      [['--from', '2025-09-01', '--to', '2025-08-31']],
      [['--csv']],
      [['--json', '--open']],
    ])('lk report %j is a usage error (exit 2) before the mirror is read or anything is sent', async (args) => {
      bed.sandbox.resetCounters();
      const result = await bed.lk(['report', '--db', join(dir, 'missing.db'), ...args]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^lk: /);
      expect(bed.sandbox.counters.requests).toBe(0);
    });

    it('--sync brings a mirror into being first, then reports from it', async () => {
      const fresh = join(dir, 'fresh.db');
      const result = await bed.lk(['report', '--sync', '--db', fresh, '--from', '2020-01-01', '--json'], {
        env: { LK_CACHE_DIR: join(dir, 'cache-fresh') },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/lk: synced .*fresh\.db/);
      expect((JSON.parse(result.stdout) as ReportFigures).total.events).toBeGreaterThan(0);
    });

    it('--open hands the written file to BROWSER as a file: URL', async () => {
      const opened = join(dir, 'opened.txt');
      const browser = join(dir, 'browser.sh');
      writeFileSync(browser, `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
      chmodSync(browser, 0o755);
      const file = join(dir, 'open me.html');
      const result = await bed.lk(['report', '--db', db, '--from', '2020-01-01', '-o', file, '--open'], {
        env: { BROWSER: browser },
        tty: { columns: 80 },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(readFileSync(opened, 'utf8')).toBe(`file://${dir.split('/').map(encodeURIComponent).join('/')}/open%20me.html`);
    });
  });
});
