import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openForReading } from '../../src/mirror/open.js';
import { escapeHtml } from '../../src/output/wording/feed-text.js';
import type { ExtraField } from '../../src/sandbox/model.js';
import { VARIANTS } from '../../src/sandbox/variant.js';
import { startTestBed, type TestBed } from '../e2e/harness.js';
import { tempDir } from '../support/temp-dir.js';
import { call, mcpInProcess } from './mcp-support.js';
import { serveInProcess } from '../support/serve-in-process.js';
import { describeWithSqlite } from '../support/sqlite-node.js';

// Issue 58: a marker text planted in every private field — an entry's notes, a list item's note, a review private in
// every spelling servers use, a spoiler review in every spelling, a list that is not public (in every spelling, and
// with none) — is found on no public surface: lk feed --public (Atom and JSON) and every address of lk serve. Searched
// raw, HTML-escaped and JSON-escaped. lk feed --public and serve's /feed.atom were not the same document, and the
// feed showed the text of a review marked private (it checked spoilers only).

const now = Date.parse('2026-06-15T12:00:30Z');
const clock = () => now;

/** A text no generated data holds, with the characters each escaping rewrites. */
const marker = (field: string) => `lkSecret${field.replace(/[^A-Za-z0-9]/g, '')}X9 <&"'>`;

/** How a review is private, in each spelling servers use (src/items/audience.ts), or a spoiler (review.ts). */
const WITHHELD_REVIEWS: Array<{ name: string; spoiler?: boolean; fields?: Record<string, ExtraField> }> = [
  { name: 'isPrivate', fields: { isPrivate: true } },
  { name: 'private', fields: { private: true } },
  { name: 'public false', fields: { public: false } },
  { name: 'isPublic false', fields: { isPublic: false } },
  { name: 'visibility private', fields: { visibility: 'private' } },
  { name: 'visibility friends', fields: { visibility: 'friends' } },
  { name: 'spoiler', spoiler: true },
  { name: 'containsSpoilers', fields: { containsSpoilers: true } },
  { name: 'hasSpoilers', fields: { hasSpoilers: true } },
];

/** Lists that are not public: each spelling of "private", and a list with no marking at all. */
const HIDDEN_LISTS: Array<{ name: string; visibility?: 'private' | 'friends'; fields?: Record<string, ExtraField> }> = [
  { name: 'sandbox private', visibility: 'private' },
  { name: 'sandbox friends', visibility: 'friends' },
  { name: 'public false', fields: { public: false } },
  { name: 'isPublic false', fields: { isPublic: false } },
  { name: 'private', fields: { private: true } },
  { name: 'isPrivate', fields: { isPrivate: true } },
  { name: 'public yet private', fields: { public: true, isPrivate: true } },
  { name: 'unmarked' },
];

/** The forms a text takes in a document: as it is, HTML-escaped (Atom, the report), JSON-escaped, or both. */
function forms(text: string): string[] {
  const json = (value: string) => JSON.stringify(value).slice(1, -1);
  return [text, escapeHtml(text), json(text), json(escapeHtml(text)), text.split(' ')[0]!];
}

/** Every file of a site lk publish wrote (its manifest aside), relative to its folder. */
function siteFilesIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name !== '.lk-publish.json')
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

for (const variant of VARIANTS) {
  describeWithSqlite(`lk feed --public and lk serve show no private field (${variant} variant)`, () => {
    let bed: TestBed;
    let dataDir: string;
    let db: string;
    const secrets: string[] = [];
    let publicReview: string;
    const env = () => ({ LK_DATA_DIR: dataDir, LK_CACHE_DIR: join(dataDir, 'cache') });
    const lk = (args: string[], key: string | null = null) => bed.lk(args, { key, now: clock, env: env() });

    const serve = () => serveInProcess(bed, ['--db', db], { now: clock, env: env() });

    beforeAll(async () => {
      bed = await startTestBed({ entries: 120, rateLimit: 0, exportIntervalSeconds: 0, now: clock, variant });
      dataDir = tempDir('lk-public-markers-');
      db = join(dataDir, 'mirror.db');
      const { sandbox } = bed;
      const ids = sandbox.entryIds('demo');
      let next = 0;
      // Each withheld review on an entry seen just now (a film seen: the feed quotes its review), with notes of its own.
      for (const { name, spoiler, fields } of WITHHELD_REVIEWS) {
        const id = ids[next++]!;
        const [title, body, notes] = [marker(`review title ${name}`), marker(`review body ${name}`), marker(`notes ${name}`)];
        sandbox.addReview('demo', id, { title, body, spoiler, fields });
        sandbox.noteEntry('demo', id, notes);
        sandbox.addEvent('demo', id);
        secrets.push(title, body, notes);
      }
      // A review no one marked: public, quoted by the public feed (the search below would find a leak).
      publicReview = 'lkPublicReviewX9';
      const shown = ids[next++]!;
      sandbox.addReview('demo', shown, { title: `${publicReview} title`, body: `${publicReview} body` });
      sandbox.addEvent('demo', shown);
      for (const { name, visibility, fields } of HIDDEN_LISTS) {
        const [listName, description, note] = [marker(`list name ${name}`), marker(`list description ${name}`), marker(`list note ${name}`)];
        sandbox.addList('demo', { name: listName, description, visibility, fields, items: [{ entryId: ids[next++]!, note }] });
        secrets.push(listName, description, note);
      }
      // A public list: its name may show, its item's note may not.
      const publicNote = marker('public list note');
      sandbox.addList('demo', { name: 'lkPublicListX9', visibility: 'public', items: [{ entryId: ids[next]!, note: publicNote }] });
      secrets.push(publicNote);
      const synced = await lk(['sync', '--db', db], 'full');
      expect(synced.code, synced.stderr).toBe(0);
    });
    afterAll(async () => {
      await bed.sandbox.close();
    });

    /** The secrets a document shows, in any of their forms. */
    const leaked = (body: string) => secrets.filter((secret) => forms(secret).some((form) => body.includes(form)));

    it('every marker reached the mirror, and the owner’s own feed shows the private review’s text', async () => {
      const mirror = openForReading(db);
      const everything = ['entries', 'reviews', 'lists', 'list_items']
        .map((table) =>
          mirror
            .prepare(`SELECT json FROM ${table}`)
            .all()
            .map((row) => String(row.json))
            .join('\n'),
        )
        .join('\n');
      mirror.close();
      expect(leaked(everything)).toEqual(secrets);
      const own = await lk(['feed', '--json', '--db', db]);
      expect(own.code, own.stderr).toBe(0);
      expect(own.stdout).toContain(marker('review body isPrivate').split(' ')[0]);
    });

    it('the owner’s assistant (lk mcp over stdio) is not the public projection: it reads them all', async () => {
      const server = mcpInProcess(bed, ['--db', db]);
      try {
        const client = await server.connect();
        const columns = [
          'title FROM reviews',
          'body FROM reviews',
          'name FROM lists',
          'description FROM lists',
          'note FROM list_items',
          'notes FROM entries',
        ];
        const query = columns.map((column) => `SELECT ${column}`).join(' UNION ALL ');
        const answer = await call(client, 'sql', { query, max_rows: 1000 });
        expect(answer.isError ?? false, answer.content[0]?.text).toBe(false);
        const read = JSON.stringify(answer);
        expect(secrets.filter((secret) => !read.includes(secret.split(' ')[0]!))).toEqual([]);
      } finally {
        server.stdin.end();
        expect(await server.exited).toBe(0);
      }
    });

    it('lk feed --public (Atom and JSON) shows none, and quotes the review no one marked', async () => {
      for (const args of [
        ['feed', '--public'],
        ['feed', '--public', '--json'],
      ]) {
        const result = await lk([...args, '--db', db]);
        expect(result.code, result.stderr).toBe(0);
        expect(leaked(result.stdout), args.join(' ')).toEqual([]);
        expect(result.stdout, args.join(' ')).toContain(`${publicReview} body`);
        // A spoiler is said to be one; a private review is not mentioned at all.
        expect(result.stdout.match(/contains spoilers, read it on the page/g), args.join(' ')).toHaveLength(3);
      }
    });

    it('lk publish writes none in any file; each is at /site/ the same bytes; two runs into two folders write the same', async () => {
      const [first, second] = [join(dataDir, 'site-a'), join(dataDir, 'site-b')];
      for (const dir of [first, second]) {
        const published = await lk(['publish', dir, '--db', db]);
        expect(published.code, published.stderr).toBe(0);
      }
      const files = siteFilesIn(first);
      expect(files).toContain('index.html');
      expect(files.some((file) => file.startsWith('lists/'))).toBe(true);
      expect(siteFilesIn(second)).toEqual(files);
      const serving = await serve();
      try {
        for (const file of files) {
          const written = readFileSync(join(first, file), 'utf8');
          expect(leaked(written), file).toEqual([]);
          expect(readFileSync(join(second, file), 'utf8'), file).toBe(written);
          const response = await fetch(new URL(`/site/${file}`, serving.url));
          expect(response.status, file).toBe(200);
          expect(await response.text(), `/site/${file}`).toBe(written);
        }
      } finally {
        expect((await serving.stop()).code).toBe(0);
      }
    });

    it('no address of lk serve shows one; /feed.atom and /feed.json are lk feed --public’s documents', async () => {
      const serving = await serve();
      try {
        const index = await (await fetch(serving.url)).text();
        const linked = [...index.matchAll(/href="(\/[^"?]*)"/g)].map((match) => match[1]!);
        const year = new Date(now).getUTCFullYear();
        expect(linked).toContain(`/report/${year}.html`);
        const fixed = ['/calendar.ics', '/feed.atom', '/feed.json', '/status.json', '/next.json', '/next.json?all', `/report/${year}.html`];
        // Every fixed address, the newest report and the one before (each report is made the same way).
        const reports = linked.filter((path) => path.startsWith('/report/')).slice(0, 2);
        const paths = ['/', ...new Set([...fixed, ...linked.filter((path) => !path.startsWith('/report/')), ...reports])];
        for (const path of paths) {
          const response = await fetch(new URL(path, serving.url));
          expect(response.status, path).toBe(200);
          expect(leaked(await response.text()), path).toEqual([]);
        }
        for (const [path, args] of [
          ['/feed.atom', ['feed', '--public']],
          ['/feed.json', ['feed', '--public', '--json']],
        ] as const) {
          const command = await lk([...args, '--db', db]);
          expect(await (await fetch(new URL(path, serving.url))).text(), path).toBe(command.stdout);
        }
      } finally {
        expect((await serving.stop()).code).toBe(0);
      }
    });
  });
}
