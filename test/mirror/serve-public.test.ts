import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { openForReading } from '../../src/mirror/open.js';
import { startTestBed, type TestBed } from '../e2e/harness.js';
import { tempDir } from '../support/temp-dir.js';
import { runOnOldNode } from '../support/old-node.js';
import { serveInProcess } from '../support/serve-in-process.js';
import { describeWithSqlite, describeWithoutSqlite } from '../support/sqlite-node.js';

// Issues 44 and 45: what lk serve serves is the public projection (no notes, no private or spoiler review text), and
// its bytes follow the data, not the sync: a sync that changed nothing answers 304 to every client that asked before.

// Half a minute past the hour: no episode airs (they air on the hour) between this and the later syncs below.
let now = Date.parse('2026-06-15T12:00:30Z');
const clock = () => now;

/** lk serve on the mirror, in process on the test's clock: its address, and how to stop it. */
const serveMirror = (bed: TestBed, db: string, env: Record<string, string>) => serveInProcess(bed, ['--db', db], { now: clock, env });

describeWithSqlite('lk serve: the public projection and stable bytes', () => {
  let bed: TestBed;
  let dataDir: string;
  let db: string;
  const env = () => ({ LK_DATA_DIR: dataDir, LK_CACHE_DIR: join(dataDir, 'cache') });
  const lk = (args: string[], key: string | null = null) => bed.lk(args, { key, now: clock, env: env() });

  const serve = () => serveMirror(bed, db, env());

  /** Every address the index links (the reports of every year with activity among them), and the index itself. */
  async function everyRoute(url: string): Promise<string[]> {
    const index = await (await fetch(url)).text();
    const linked = [...index.matchAll(/href="(\/[^"?]*)"/g)].map((match) => match[1]!);
    expect(linked).toEqual(expect.arrayContaining(['/calendar.ics', '/feed.atom', '/feed.json', '/status.json', '/next.json']));
    const reports = linked.filter((path) => path.startsWith('/report/'));
    expect(reports.length).toBeGreaterThan(1);
    // Every fixed address and the two newest reports (each report is made the same way; six years take seconds each).
    return ['/', ...new Set(linked.filter((path) => !path.startsWith('/report/'))), ...reports.slice(0, 2)];
  }

  beforeAll(async () => {
    // 600 entries: the demo account then has a spoiler review among its reviews, and notes on many entries.
    bed = await startTestBed({ entries: 600, rateLimit: 0, exportIntervalSeconds: 0, now: clock });
    dataDir = tempDir('lk-serve-public-');
    db = join(dataDir, 'mirror.db');
    const synced = await lk(['sync', '--db', db], 'full');
    expect(synced.code, synced.stderr).toBe(0);
  });
  afterAll(async () => {
    await bed.sandbox.close();
  });

  it('no route nor the index shows an entry’s notes, a list item’s note or a private or spoiler review’s text', async () => {
    const mirror = openForReading(db);
    const notes = mirror
      .prepare("SELECT notes AS text FROM entries WHERE notes IS NOT NULL AND notes <> '' UNION SELECT note FROM list_items WHERE note <> ''")
      .all()
      .map((row) => String(row.text));
    const reviews = mirror.prepare('SELECT title, body, json FROM reviews').all();
    mirror.close();
    const hidden = (json: unknown) => {
      const review = JSON.parse(String(json)) as Record<string, unknown>;
      return review.spoiler === true || review.private === true || (review.visibility !== undefined && review.visibility !== 'public');
    };
    const publicTitles = new Set(reviews.filter((row) => !hidden(row.json)).map((row) => String(row.title)));
    const withheld = reviews
      .filter((row) => hidden(row.json))
      .flatMap((row) => [String(row.body), ...(publicTitles.has(String(row.title)) ? [] : [String(row.title)])]);
    expect(notes.length).toBeGreaterThan(5);
    expect(withheld.length).toBeGreaterThan(0);
    // The command itself shows a note: the projection is serve's, not the mirror's.
    expect((await lk(['next', '--json', '--offline', '--db', db])).stdout).toMatch(/"notes":"/);

    const serving = await serve();
    try {
      for (const path of await everyRoute(serving.url)) {
        const response = await fetch(new URL(path, serving.url));
        expect(response.status, path).toBe(200);
        const body = await response.text();
        // JSON and XML escape quotes and newlines their own way: each secret is looked for by its longest plain run.
        for (const secret of [...notes, ...withheld]) {
          const run = secret.split(/["\n\r&<>,;\\]/).reduce((a: string, b: string) => (b.length > a.length ? b : a), '');
          if (run.length >= 8) expect(body.includes(run), `${path} shows "${run}"`).toBe(false);
        }
      }
      // /status.json keeps its notifications: a dashboard shows them.
      const status = (await (await fetch(new URL('/status.json', serving.url))).json()) as { notifications: { latest: unknown[] } };
      expect(status.notifications.latest.length).toBeGreaterThan(0);
    } finally {
      expect((await serving.stop()).code).toBe(0);
    }
  });

  it('a sync that changed nothing: every route answers 304 to If-None-Match; one that changed an entry: new ETags', async () => {
    const serving = await serve();
    try {
      const paths = (await everyRoute(serving.url)).filter((path) => path !== '/'); // the index is no-store
      const etags = new Map<string, string>();
      for (const path of paths) {
        const response = await fetch(new URL(path, serving.url));
        expect(response.status, path).toBe(200);
        etags.set(path, response.headers.get('etag')!);
      }
      const calendarBefore = await (await fetch(new URL('/calendar.ics', serving.url))).text();

      now += 5_000; // a later sync, of the same data
      const same = await lk(['sync', '--db', db], 'full');
      expect(same.code, same.stderr).toBe(0);
      expect(same.stderr).toMatch(/\(\+0 ~0 -0 rows\)/);
      for (const path of paths) {
        const response = await fetch(new URL(path, serving.url), { headers: { 'if-none-match': etags.get(path)! } });

        expect(response.status, `${path} after a sync that changed nothing`).toBe(304);
      }

      // A followed show's entry rated: its events' DTSTAMP and the calendar's ETag change, and the others' stay.
      type Item = { entryId: string; show: { id: string }; season: number; episode: number };
      const upcoming = JSON.parse((await lk(['calendar', '--offline', '--json', '--db', db])).stdout) as Item[];
      const { entryId, show, season, episode } = upcoming[0]!;
      const uid = `${show.id}-s${season}e${episode}@lk`;
      const before = new ICAL.Component(ICAL.parse(calendarBefore));
      now += 5_000;
      bed.sandbox.rateEntry('demo', entryId, 7);
      // A rating set without an event waits for the next export in a sync within the hour: --full reads it now.
      const changed = await lk(['sync', '--full', '--db', db], 'full');
      expect(changed.code, changed.stderr).toBe(0);
      expect(changed.stderr).not.toMatch(/\(\+0 ~0 -0 rows\)/);
      const response = await fetch(new URL('/calendar.ics', serving.url), { headers: { 'if-none-match': etags.get('/calendar.ics')! } });
      expect(response.status).toBe(200);
      expect(response.headers.get('etag')).not.toBe(etags.get('/calendar.ics'));
      const after = new ICAL.Component(ICAL.parse(await response.text()));
      const stamps = (component: ICAL.Component, uid: string) =>
        component
          .getAllSubcomponents('vevent')
          .filter((vevent) => vevent.getFirstPropertyValue('uid') === uid)
          .map((vevent) => new Date(vevent.getFirstPropertyValue('dtstamp')!.toString()).getTime());
      expect(stamps(before, uid)).toHaveLength(1);
      expect(stamps(before, uid)).not.toEqual([Math.floor(now / 1000) * 1000]);
      expect(stamps(after, uid)).toEqual([Math.floor(now / 1000) * 1000]);
      const changedStatus = await fetch(new URL('/status.json', serving.url), { headers: { 'if-none-match': etags.get('/status.json')! } });
      expect(changedStatus.status).toBe(200);
    } finally {
      expect((await serving.stop()).code).toBe(0);
    }
  });
});

// Issue 57: an instance whose entries carry no update time (the alt variant's) and whose stats carry their generation
// time (both allowed: docs/api.md shows neither). A sync that changed nothing moved every event's DTSTAMP (the
// mirror's last change, which the stats' generatedAt moved at every sync) and lk serve stopped answering 304.
describeWithSqlite('lk serve on an instance without update times, whose stats carry generatedAt', () => {
  let bed: TestBed;
  let dataDir: string;
  let db: string;
  const env = () => ({ LK_DATA_DIR: dataDir, LK_CACHE_DIR: join(dataDir, 'cache') });
  const lk = (args: string[], key: string | null = null) => bed.lk(args, { key, now: clock, env: env() });

  beforeAll(async () => {
    bed = await startTestBed({
      entries: 80,
      rateLimit: 0,
      exportIntervalSeconds: 0,
      now: clock,
      variant: 'alt',
      statsGeneratedAt: true,
      // The pages only, every sync: each one after the first reads what changed, where the churn was seen.
      faults: { paths: ['/v1/export'], rate429: 1, retryAfter429: 86_400 },
    });
    dataDir = tempDir('lk-serve-churn-');
    db = join(dataDir, 'mirror.db');
    const synced = await lk(['sync', '--db', db], 'full');
    expect(synced.code, synced.stderr).toBe(0);
  });
  afterAll(async () => {
    await bed.sandbox.close();
  });

  it('a sync that changed nothing: 304 on every route with the ETag from before it, the calendar’s DTSTAMPs as they were', async () => {
    const serving = await serveMirror(bed, db, env());
    const { url } = serving;
    try {
      const year = new Date(now).getUTCFullYear();
      const paths = ['/calendar.ics', '/feed.atom', '/feed.json', '/status.json', '/next.json', `/report/${year}.html`];
      const etags = new Map<string, string>();
      for (const path of paths) {
        const response = await fetch(new URL(path, url));
        expect(response.status, path).toBe(200);
        etags.set(path, response.headers.get('etag')!);
      }
      const calendar = await (await fetch(new URL('/calendar.ics', url))).text();
      expect(calendar).toMatch(/^DTSTAMP:/m);
      const summary = () => lk(['sql', "SELECT json_extract(json, '$.generatedAt') AS at FROM stats", '--db', db, '--csv']);
      const generated = (await summary()).stdout;

      now += 5_000; // a later sync of the same data: only the stats' generatedAt differs
      const same = await lk(['sync', '--db', db], 'full');
      expect(same.code, same.stderr).toBe(0);
      for (const path of paths) {
        const response = await fetch(new URL(path, url), { headers: { 'if-none-match': etags.get(path)! } });
        expect(response.status, `${path} after a sync that changed nothing`).toBe(304);
      }
      // The same figures made again are no change: the mirror keeps the time they were first made.
      expect(same.stderr).toMatch(/\(\+0 ~0 -0 rows\)/);
      expect((await summary()).stdout).toBe(generated);
      expect(await (await fetch(new URL('/calendar.ics', url))).text()).toBe(calendar);
    } finally {
      expect((await serving.stop()).code).toBe(0);
    }
  });

  it('a sync that added entries: the events of the entries it did not change keep their DTSTAMP', async () => {
    const stamps = async () => {
      const ics = (await lk(['calendar', '--offline', '--format', 'ics', '--db', db])).stdout;
      const events = new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent');
      return new Map(events.map((vevent) => [String(vevent.getFirstPropertyValue('uid')), String(vevent.getFirstPropertyValue('dtstamp'))]));
    };
    const before = await stamps();
    expect(before.size).toBeGreaterThan(0);
    now += 5_000;
    bed.sandbox.addEntries('demo', 3);
    const synced = await lk(['sync', '--db', db], 'full');
    expect(synced.code, synced.stderr).toBe(0);
    expect(synced.stderr).toMatch(/\(\+[1-9]/);
    const after = await stamps();
    for (const [uid, stamp] of before) expect(after.get(uid), uid).toBe(stamp);
  });
});

describeWithoutSqlite(`on Node ${process.versions.node} (no node:sqlite)`, () => {
  it(`on Node ${process.versions.node} (no node:sqlite) lk serve says it needs Node 22.13, in one line, exit 1`, async () => {
    const result = await runOnOldNode(['serve', '--port', '0']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toMatch(/^lk: lk serve needs Node 22\.13 or later/);
  });
});
