import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLkInProcess, startTestBed, type TestBed } from '../e2e/harness.js';
import { json, startHostileServer, type HostileServer } from '../e2e/hostile-server.js';
import { whatRunLoads } from '../e2e/loaded.js';
import { atomProblems, feedparser, jsonFeedErrors } from '../support/feeds.js';
import { describeWith } from '../support/outside-tools.js';
import { describeWithSqlite, describeWithoutSqlite } from '../support/sqlite-node.js';

// Issue 27: lk feed, the mirror's recent activity as Atom 1.0 and JSON Feed 1.1. Checked by parsers lk does not ship:
// Debian's feedparser for Atom, a JSON Schema of JSON Feed 1.1 (test/support/json-feed-1.1.schema.json) for JSON.

interface JsonFeed {
  version: string;
  title: string;
  items: Array<{ id: string; url?: string; title: string; content_html: string; date_modified: string; date_published: string }>;
}

let dataDir: string;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'lk-feed-'));
});

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describeWithoutSqlite(`on Node ${process.versions.node} (no node:sqlite)`, () => {
  it('lk feed exits 1 with one line naming Node 22.13', async () => {
    const result = await runLkInProcess(['feed', '--db', join(dataDir, 'none.db')], { env: { LK_DATA_DIR: dataDir } });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toMatch(/^lk: lk feed needs Node 22\.13 or later/);
  });
});

describeWithSqlite('lk feed on a synced mirror', () => {
  let bed: TestBed;
  const db = (name: string) => join(dataDir, `${name}.db`);
  const env = (name: string) => ({ LK_DATA_DIR: dataDir, LK_CACHE_DIR: join(dataDir, `cache-${name}`) });
  const sync = async (name: string, extra: string[] = []) => {
    const result = await bed.lk(['sync', '--db', db(name), ...extra], { env: env(name) });
    expect(result.code, result.stderr).toBe(0);
  };
  // No key: lk feed reads the mirror alone.
  const feed = (name: string, args: string[] = []) => bed.lk(['feed', '--db', db(name), ...args], { key: null, env: env(name) });
  const atomOf = async (name: string, args: string[] = []) => {
    const result = await feed(name, args);
    expect(result.code, result.stderr).toBe(0);
    return result.stdout;
  };
  const jsonOf = async (name: string, args: string[] = []) => JSON.parse(await atomOf(name, ['--format', 'json', ...args])) as JsonFeed;

  beforeAll(async () => {
    bed = await startTestBed({ entries: 120, rateLimit: 0, exportIntervalSeconds: 0 });
    await sync('main');
  });

  afterAll(async () => {
    await bed.sandbox.close();
  });

  describe('lk feed: what it refuses', () => {
    it('a missing mirror is an error naming lk sync (exit 1), with nothing on stdout', async () => {
      const result = await feed('missing');
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^lk: no mirror at .*missing\.db\nCreate it with `lk sync`/);
    });

    for (const [args, message] of [
      [['--limit', '0'], /invalid --limit "0": expected a whole number from 1 to 1000/],
      [['--since', 'last tuesday'], /invalid --since "last tuesday"/],
      [['--format', 'csv'], /--format csv does not apply to lk feed/],
      [['--ndjson'], /--format ndjson does not apply to lk feed/],
      [['--fields', 'id'], /--fields does not apply to lk feed/],
      [['--domain', 'PODCASTS'], /--domain/],
    ] as const) {
      it(`lk feed ${args.join(' ')} exits 2 with one line`, async () => {
        const result = await feed('main', [...args]);
        expect(result.code).toBe(2);
        expect(result.stdout).toBe('');
        expect(result.stderr).toMatch(message);
      });
    }

    it('--format atom belongs to lk feed: lk library --format atom exits 2 before any request', async () => {
      bed.sandbox.resetCounters();
      const result = await bed.lk(['library', '--format', 'atom']);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^lk: --format atom is only for lk feed/);
      expect(bed.sandbox.counters.requests).toBe(0);
    });
  });

  describeWith(['python3-feedparser'], 'lk feed: Atom 1.0, read by feedparser', () => {
    it('is Atom 1.0 with no parser warning, 50 entries by default, newest first, each with an id, a title and a link', async () => {
      const atom = await atomOf('main');
      expect(atomProblems(atom)).toEqual([]);
      const parsed = await feedparser(atom);
      expect(parsed.error).toBe('');
      expect(parsed.bozo).toBe(false);
      expect(parsed.version).toBe('atom10');
      expect(parsed.entries).toHaveLength(50);
      const updated = parsed.entries.map((entry) => Date.parse(entry.updated!));
      expect(updated).toEqual([...updated].sort((a, b) => b - a));
      for (const entry of parsed.entries) {
        expect(entry.id).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(entry.title).toMatch(/^(Finished|Listened to|Watched|Played|Read) /);
        expect(entry.link).toMatch(/^https:\/\/app\.lk\.example\//);
      }
      expect(new Set(parsed.entries.map((entry) => entry.id)).size).toBe(50);
      // The feed's updated is its newest entry's: nothing of the clock in it.
      expect(parsed.feed.updated).toBe(parsed.entries[0]!.updated);
    });

    it("the entries are the mirror's newest dated events: --limit 7 gives the first 7 of the default feed", async () => {
      const all = await feedparser(await atomOf('main'));
      const seven = await feedparser(await atomOf('main', ['--limit', '7']));
      expect(seven.bozo).toBe(false);
      expect(seven.entries.map((entry) => entry.id)).toEqual(all.entries.slice(0, 7).map((entry) => entry.id));
    });

    it('--domain BOOKS keeps books alone, in a feed with an id of its own', async () => {
      const books = await feedparser(await atomOf('main', ['--domain', 'books', '--limit', '200']));
      const all = await feedparser(await atomOf('main'));
      expect(books.bozo).toBe(false);
      expect(books.entries.length).toBeGreaterThan(0);
      for (const entry of books.entries) expect(entry.title).toMatch(/\(book\)|^Read /);
      expect(books.feed.id).not.toBe(all.feed.id);
    });

    it('--since keeps the activity from that moment on: the newest entries, down to that date', async () => {
      const all = await feedparser(await atomOf('main'));
      const since = all.entries[9]!.updated!;
      const recent = await feedparser(await atomOf('main', ['--since', since]));
      expect(recent.bozo).toBe(false);
      expect(recent.entries.map((entry) => entry.id)).toEqual(all.entries.slice(0, recent.entries.length).map((entry) => entry.id));
      expect(recent.entries.length).toBeGreaterThanOrEqual(10);
      expect(recent.entries.length).toBeLessThan(all.entries.length);
      for (const entry of recent.entries) expect(Date.parse(entry.updated!)).toBeGreaterThanOrEqual(Date.parse(since));
    });

    it('episodes of one show on one day are one entry: "Watched N episodes of *Show* (SxxEyy–SxxEzz)"', async () => {
      const parsed = await feedparser(await atomOf('main', ['--limit', '200']));
      const grouped = parsed.entries.filter((entry) => /^Watched \d+ episodes of [^*]+ \(S\d\dE\d\d–S\d\dE\d\d\)$/.test(entry.title!));
      expect(grouped.length).toBeGreaterThan(0);
      expect(grouped[0]!.content).toMatch(/Episodes: S\d\dE\d\d, S\d\dE\d\d/);
    });

    it('two runs give the same bytes; a re-sync (--full) gives the same bytes and ids', async () => {
      const first = await atomOf('main');
      expect(await atomOf('main')).toBe(first);
      await sync('main', ['--full']);
      expect(await atomOf('main')).toBe(first);
    });

    it('a mirror synced from the paginated endpoints (export hour not over) gives the same bytes as one synced from the export', async () => {
      const paged = await startTestBed({ entries: 40, rateLimit: 0, seed: 7 });
      try {
        const run = (name: string, args: string[]) => paged.lk([...args, '--db', db(name)], { env: env(name) });
        expect((await run('from-export', ['sync'])).stderr).toMatch(/from the export/);
        // Another cache folder: no cached export to fall back on, and the server's hour is not over.
        expect((await run('from-pages', ['sync'])).stderr).toMatch(/from the paginated endpoints/);
        const fromExport = (await run('from-export', ['feed'])).stdout;
        expect((await feedparser(fromExport)).entries.length).toBeGreaterThan(10);
        expect((await run('from-pages', ['feed'])).stdout).toBe(fromExport);
      } finally {
        await paged.sandbox.close();
      }
    });

    it('an implementation with other field names and UUID ids (the alt variant) gives the same titles, links and order', async () => {
      const titlesOf = async (variant: 'default' | 'alt') => {
        const other = await startTestBed({ entries: 40, rateLimit: 0, seed: 7, variant });
        try {
          const run = (name: string, args: string[]) => other.lk([...args, '--db', db(name)], { env: env(name) });
          // The second sync, with a cache of its own, reads the paginated endpoints, where the alt variant's names are.
          await run(`${variant}-export`, ['sync']);
          expect((await run(`${variant}-pages`, ['sync'])).stderr).toMatch(/from the paginated endpoints/);
          const parsed = await feedparser((await run(`${variant}-pages`, ['feed'])).stdout);
          expect(parsed.bozo).toBe(false);
          return parsed.entries.map((entry) => `${entry.title} ${entry.link}`);
        } finally {
          await other.sandbox.close();
        }
      };
      const titles = await titlesOf('default');
      expect(titles.length).toBeGreaterThan(10);
      expect(await titlesOf('alt')).toEqual(titles);
    });

    it('a new event after a re-sync is one new entry at the top; every other entry keeps its id', async () => {
      // A sandbox of its own: the new event changes its data.
      const growing = await startTestBed({ entries: 40, rateLimit: 0, exportIntervalSeconds: 0, seed: 11 });
      try {
        const run = (args: string[]) => growing.lk([...args, '--db', db('grows')], { env: env('grows') });
        expect((await run(['sync'])).code).toBe(0);
        const before = await feedparser((await run(['feed', '--limit', '10'])).stdout);
        const [entryId] = growing.sandbox.entryIds('demo');
        growing.sandbox.addEvent('demo', entryId!, 'FILM_SEEN');
        expect((await run(['sync'])).code).toBe(0);
        const after = await feedparser((await run(['feed', '--limit', '11'])).stdout);
        expect(after.bozo).toBe(false);
        expect(after.entries.slice(1).map((entry) => entry.id)).toEqual(before.entries.map((entry) => entry.id));
        expect(before.entries.map((entry) => entry.id)).not.toContain(after.entries[0]!.id);
        expect(after.feed.updated).toBe(after.entries[0]!.updated);
      } finally {
        await growing.sandbox.close();
      }
    });
    it("a feed with no entries (--since in the future) is still valid, dated by the mirror's newest event", async () => {
      const empty = await atomOf('main', ['--since', '2099-01-01']);
      expect(atomProblems(empty)).toEqual([]);
      const parsed = await feedparser(empty);
      expect(parsed.bozo).toBe(false);
      expect(parsed.entries).toEqual([]);
      expect(parsed.feed.updated).toBe((await feedparser(await atomOf('main'))).feed.updated);
    });
  });

  describe('lk feed --format json: JSON Feed 1.1', () => {
    it('is valid JSON Feed 1.1 by its schema, with the same entries, ids and order as the Atom feed', async () => {
      const feedJson = await jsonOf('main');
      expect(jsonFeedErrors(feedJson)).toEqual([]);
      expect(feedJson.version).toBe('https://jsonfeed.org/version/1.1');
      expect(feedJson.items).toHaveLength(50);
      const atom = await atomOf('main');
      const atomIds = [...atom.matchAll(/<entry>\s*<title[^>]*>.*?<\/title>\s*<id>([^<]+)<\/id>/gs)].map((match) => match[1]);
      expect(feedJson.items.map((item) => item.id)).toEqual(atomIds);
    });

    it('--json is the same as --format json, and two runs give the same bytes', async () => {
      const formatJson = await atomOf('main', ['--format', 'json']);
      expect(await atomOf('main', ['--json'])).toBe(formatJson);
      expect(await atomOf('main', ['--format', 'JSON'])).toBe(formatJson);
    });

    it("the schema itself refuses what JSON Feed 1.1 forbids (an item without content, 1.0's author)", () => {
      expect(jsonFeedErrors({ version: 'https://jsonfeed.org/version/1.1', title: 't', items: [{ id: '1' }] })).not.toEqual([]);
      expect(jsonFeedErrors({ version: 'https://jsonfeed.org/version/1.1', title: 't', author: { name: 'a' }, items: [] })).not.toEqual([]);
      expect(jsonFeedErrors({ version: 'https://jsonfeed.org/version/1', title: 't', items: [] })).not.toEqual([]);
    });
  });

  describe('lk feed: notes and --public', () => {
    it('without --public the notes are in the feed and stderr says so; with it they are not, and nothing is said', async () => {
      const withNotes = await feed('main', ['--json', '--limit', '200']);
      expect(withNotes.stderr).toMatch(
        /^lk: the feed includes your notes on \d+ entr(y|ies) \(the web app keeps them private\); --public leaves them out$/m,
      );
      const items = (JSON.parse(withNotes.stdout) as JsonFeed).items;
      const noted = items.filter((item) => item.content_html.includes('<p>Notes: '));
      expect(noted.length).toBeGreaterThan(0);
      const publicFeed = await feed('main', ['--json', '--limit', '200', '--public']);
      expect(publicFeed.stderr).not.toMatch(/notes/);
      const publicItems = (JSON.parse(publicFeed.stdout) as JsonFeed).items;
      expect(publicItems.map((item) => item.id)).toEqual(items.map((item) => item.id));
      expect(publicItems.filter((item) => item.content_html.includes('Notes:'))).toEqual([]);
    });
  });

  describe('lk feed -o FILE', () => {
    it('writes the feed whole, says so on stderr, and leaves the file untouched (same bytes, same time) when nothing changed', async () => {
      const path = join(dataDir, 'site', 'activity.atom');
      const first = await feed('main', ['-o', path]);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toBe('');
      expect(first.stderr).toMatch(/^lk: wrote .*activity\.atom \(50 entries, Atom 1\.0\)$/m);
      expect(readFileSync(path, 'utf8')).toBe(await atomOf('main'));
      const written = statSync(path).mtimeMs;
      const again = await feed('main', ['-o', path]);
      expect(again.stderr).toMatch(/activity\.atom is up to date \(50 entries\), left untouched/);
      expect(statSync(path).mtimeMs).toBe(written);
    });

    it('a failing run (a mirror that is not there) leaves the old file as it was', async () => {
      const path = join(dataDir, 'kept.atom');
      writeFileSync(path, 'the old feed');
      const result = await feed('nowhere', ['-o', path]);
      expect(result.code).toBe(1);
      expect(readFileSync(path, 'utf8')).toBe('the old feed');
    });

    it('--sync syncs first (with the key), then writes the feed of the fresh mirror', async () => {
      const path = join(dataDir, 'synced.json');
      const result = await bed.lk(['feed', '--sync', '--db', db('fresh'), '--json', '-o', path], { env: env('fresh') });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/^lk: synced .*fresh\.db/m);
      expect(jsonFeedErrors(JSON.parse(readFileSync(path, 'utf8')))).toEqual([]);
    });
  });

  describe('lk feed: what a run loads', () => {
    it('the feed package comes from its own file (dist/feed.cjs), read by lk feed alone; no HTTP client without --sync', async () => {
      const { run, distFiles, packages } = await whatRunLoads(bed, ['feed', '--db', db('main')], { env: env('main') });
      expect(run.code, run.stderr).toBe(0);
      expect(distFiles).toContain('feed.cjs');
      expect(packages).toContain('feed');
      expect(packages).toContain('xml-js');
      expect(packages).not.toContain('undici');
      const other = await whatRunLoads(bed, ['sql', 'SELECT 1', '--db', db('main')], { env: env('main') });
      expect(other.run.code, other.run.stderr).toBe(0);
      expect(other.distFiles).not.toContain('feed.cjs');
    });
  });

  describeWith(['python3-feedparser'], 'lk feed: hostile titles, notes and reviews still make a valid feed', () => {
    let server: HostileServer;
    const megabyte = `${'a long note '.repeat(95_000)}]]>`;
    const work = (id: string, title: string, type: string) => ({ id, title, type, url: `https://tracker.example/works/${id}` });
    const entry = (id: string, w: ReturnType<typeof work>, rating: number, notes: string, url = `https://tracker.example/library/${id}`) => ({
      id,
      work: w,
      status: 'COMPLETED',
      phase: 'DONE',
      rating,
      notes,
      url,
    });
    const TITLES = {
      markup: '<script>alert(1)</script> & <b>bold</b> &amp;',
      cdata: 'Ends ]]> and ]]> twice <![CDATA[',
      controls: 'NUL\u0000 ESC\u001b[31m red\u001b]0;retitled\u0007 DEL\u007f C1\u009b',
      rtl: 'שלום \u202eevil\u202c عالم',
      surrogates: 'Lone \ud800 half \ufffe\uffff emoji 🎬',
    };
    const EXPECTED_TITLES = [
      `Finished ${TITLES.markup} (book) — 4/5`,
      'Watched Ends ]]> and ]]> twice <![CDATA[ (film) — 5/5',
      'Finished NUL ESC[31m red]0;retitled DEL C1 (game) — 3/5',
      'Listened to שלום evil عالم (album) — 2/5',
      'Finished Lone half emoji 🎬 (book) — 1/5',
    ];
    const htmlText = (html: string) =>
      html.replace(/&(lt|gt|quot|#39|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[name]!);
    const EXPORT = {
      library: [
        entry('e1', work('w1', TITLES.markup, 'book'), 4, megabyte),
        entry('e2', work('w2', TITLES.cdata, 'film'), 5, 'notes with ]]> and <i>markup</i>', 'javascript:alert(1)'),
        entry('e3', work('w3', TITLES.controls, 'game'), 3, 'ESC\u001b[2J clear'),
        entry('e4', work('w4', TITLES.rtl, 'album'), 2, 'RTL \u202e override'),
        entry('e5', work('w5', TITLES.surrogates, 'book'), 1, 'x'),
      ],
      history: [
        { id: 'h1', entryId: 'e1', workId: 'w1', kind: 'BOOK_FINISHED', date: '2026-11-20T10:00:00.000Z', cycle: 1 },
        { id: 'h2', entryId: 'e2', workId: 'w2', kind: 'FILM_SEEN', date: '2026-11-19T10:00:00.000Z', cycle: 1, minutes: 100 },
        { id: 'h3', entryId: 'e3', workId: 'w3', kind: 'GAME_FINISHED', date: '2026-11-18T10:00:00.000Z', cycle: 1 },
        { id: 'h4', entryId: 'e4', workId: 'w4', kind: 'ALBUM_FINISHED', date: '2026-11-17T10:00:00.000Z', cycle: 1 },
        { id: 'h5', entryId: 'e5', workId: 'w5', kind: 'BOOK_FINISHED', date: '2026-11-16T10:00:00.000Z', cycle: 1 },
      ],
      reviews: [
        { id: 'r2', entryId: 'e2', rating: 5, title: 'The twist', body: 'The narrator was the ghost all along.', spoiler: true },
        { id: 'r1', entryId: 'e1', rating: 4, title: ']]><x>', body: `<img src=x onerror=alert(1)>\u0000 ${'word '.repeat(200_000)}` },
      ],
      profile: { id: 'p1', username: 'mallory', displayName: 'Mallory <&> "M"\u0000', url: 'https://tracker.example/u/mallory' },
    };
    const hostileEnv = () => ({
      LK_BASE_URL: server.url,
      LK_API_KEY: `lk_${'Kx7Qm2Vb9Tn4Rw6Yp1Zs3Lc5Hd8Jf0Gu2Ne4Ma6Pb8Qc1Rd3Se5Tf7'.slice(0, 49)}`,
      LK_DATA_DIR: dataDir,
      LK_CACHE_DIR: join(dataDir, 'cache-hostile'),
      LK_CONFIG_DIR: join(dataDir, 'config-hostile'),
    });
    const lkHostile = (args: string[]) => runLkInProcess([...args, '--db', db('hostile')], { env: hostileEnv() });

    beforeAll(async () => {
      server = await startHostileServer({ '/v1/export': json(EXPORT), '/v1/calendar': json({ items: [] }), '/v1/stats/summary': json({}) });
      const synced = await lkHostile(['sync']);
      expect(synced.code, synced.stderr).toBe(0);
    });

    afterAll(async () => {
      await server.close();
    });

    it('Atom: feedparser reads all five entries with no warning, and the file holds no character XML forbids', async () => {
      const atom = (await lkHostile(['feed'])).stdout;
      expect(atomProblems(atom)).toEqual([]);
      const parsed = await feedparser(atom);
      expect(parsed.error).toBe('');
      expect(parsed.bozo).toBe(false);
      expect(parsed.entries).toHaveLength(5);
      expect(atom).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\ufffe\uffff]/);
      expect(atom).not.toContain('<script');
      expect(atom.length).toBeLessThan(20_000);
      expect(parsed.feed.title).toBe('Mallory <&> "M"’s recent activity');
      // Atom's titles are HTML (type="html"): feedparser hands them on as HTML, which reads as the text as written.
      expect(parsed.entries.map((entry) => htmlText(entry.title!))).toEqual(EXPECTED_TITLES);
    });

    it('JSON Feed: valid by the schema; titles are the text as written, less the control characters', async () => {
      const feedJson = JSON.parse((await lkHostile(['feed', '--json'])).stdout) as JsonFeed;
      expect(jsonFeedErrors(feedJson)).toEqual([]);
      expect(feedJson.items.map((item) => item.title)).toEqual(EXPECTED_TITLES);
    });

    it('a review marked as a spoiler: its text under a warning in the private feed, left out of the public one', async () => {
      const privateFeed = JSON.parse((await lkHostile(['feed', '--json'])).stdout) as JsonFeed;
      expect(privateFeed.items[1]!.content_html).toContain(
        '<p>Review (spoilers):</p>\n<blockquote><p><strong>The twist</strong></p><p>The narrator was the ghost all along.</p></blockquote>',
      );
      const publicFeed = JSON.parse((await lkHostile(['feed', '--json', '--public'])).stdout) as JsonFeed;
      expect(publicFeed.items[1]!.content_html).toContain('<p>Review: contains spoilers, read it on the page.</p>');
      expect(JSON.stringify(publicFeed)).not.toContain('ghost');
      expect(JSON.stringify(publicFeed)).not.toContain('Notes:');
    });

    it('the markup of titles, reviews and notes is escaped in the HTML, long texts are cut, and a javascript: link is not used', async () => {
      const feedJson = JSON.parse((await lkHostile(['feed', '--json'])).stdout) as JsonFeed;
      const [book, film] = feedJson.items;
      expect(book!.content_html).toContain('&lt;img src=x onerror=alert(1)&gt;');
      expect(book!.content_html).toContain('<strong>]]&gt;&lt;x&gt;</strong>');
      expect(book!.content_html).not.toMatch(/<img|<script|<x>/);
      expect(book!.content_html.length).toBeLessThan(2_000);
      expect(book!.content_html).toMatch(/<p>Notes: (a long note )+.*…<\/p>/);
      expect(film!.content_html).toContain('Notes: notes with ]]&gt; and &lt;i&gt;markup&lt;/i&gt;');
      expect(film!.url).toBe('https://tracker.example/u/mallory');
      expect(JSON.stringify(feedJson)).not.toContain('javascript:');
    });
  });
});
