import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CARD_KINDS, THEMES } from '../../src/card/index.js';
import { escapeHtml } from '../../src/output/wording/feed-text.js';
import { expectRefusedBeforeAnyRequest, startTestBed, type TestBed } from '../e2e/harness.js';
import { CHROMIUM_ARGS, chromiumPath, describeWith } from '../support/outside-tools.js';
import { serveInProcess } from '../support/serve-in-process.js';
import { describeWithSqlite } from '../support/sqlite-node.js';
import { tempDir } from '../support/temp-dir.js';

// Issue 60, lk card: each kind in each theme one self-contained SVG (well-formed XML, at most 64 KB, nothing to load,
// no script, no raster image, a <title> and <desc> it is labelled by), the same bytes run after run, the public
// projection's (the marker texts of private fields found in none, nor at lk serve's /card/KIND.svg), and in chromium
// every text inside the room it was measured for, with a long display name of CJK and emoji, a 150-character title
// and an emoji title planted in the sandbox.

const now = Date.parse('2026-06-15T12:00:30Z');
const clock = () => now;

/** A text no generated data holds, with the characters escaping rewrites. */
const marker = (field: string) => `lkSecret${field.replace(/[^A-Za-z0-9]/g, '')}X9 <&"'>`;
const LONG_NAME = 'Ōtsuki 大月みなみ 🎬📚🎮 the Remarkably Long-Named Reviewer of Everything Under the Sun 👩‍👩‍👧‍👦🇯🇵';

describeWithSqlite('lk card', () => {
  let bed: TestBed;
  let dataDir: string;
  let db: string;
  const secrets: string[] = [];
  const cards = new Map<string, string>();
  const env = () => ({ LK_DATA_DIR: dataDir, LK_CACHE_DIR: join(dataDir, 'cache') });
  const lk = (args: string[], key: string | null = null) => bed.lk(args, { key, now: clock, env: env() });

  const serve = () => serveInProcess(bed, ['--db', db], { now: clock, env: env() });

  beforeAll(async () => {
    bed = await startTestBed({ entries: 120, rateLimit: 0, exportIntervalSeconds: 0, now: clock });
    dataDir = tempDir('lk-cards-');
    db = join(dataDir, 'mirror.db');
    const { sandbox } = bed;
    sandbox.editProfile('demo', { displayName: LONG_NAME });
    // The showcase's emoji game (4) and its 150-character book (5), both in progress, made the most recently active.
    const ids = sandbox.entryIds('demo');
    sandbox.addEvent('demo', ids[5]!, 'READING_SESSION');
    sandbox.addEvent('demo', ids[4]!, 'GAME_SESSION');
    // Private fields on the entries the cards show, and a hidden list.
    for (const [index, id] of [ids[4]!, ids[5]!].entries()) {
      const [notes, title, body] = [marker(`notes ${index}`), marker(`private review title ${index}`), marker(`private review body ${index}`)];
      sandbox.noteEntry('demo', id, notes);
      sandbox.addReview('demo', id, { title, body, fields: { isPrivate: true } });
      secrets.push(notes, title, body);
    }
    const spoiler = marker('spoiler body');
    sandbox.addReview('demo', ids[3]!, { title: 'fine', body: spoiler, spoiler: true });
    const listName = marker('hidden list');
    sandbox.addList('demo', { name: listName, visibility: 'private', items: [{ entryId: ids[4]!, note: marker('list note') }] });
    secrets.push(spoiler, listName, marker('list note'));
    const synced = await lk(['sync', '--db', db], 'full');
    expect(synced.code, synced.stderr).toBe(0);
    for (const kind of CARD_KINDS) {
      for (const theme of THEMES) {
        const result = await lk(['card', kind, '--theme', theme, '--db', db]);
        expect(result.code, result.stderr).toBe(0);
        cards.set(`${kind}-${theme}`, result.stdout);
      }
    }
  });
  afterAll(async () => {
    await bed.sandbox.close();
  });

  /** The secrets a text shows, raw, XML-escaped or JSON-escaped, or by the word that starts each. */
  const leaked = (text: string) =>
    secrets.filter((secret) =>
      [secret, escapeHtml(secret), JSON.stringify(secret).slice(1, -1), secret.split(' ')[0]!].some((form) => text.includes(form)),
    );

  it('every kind in every theme is one well-formed, self-contained SVG of at most 64 KB, labelled by its <title> and <desc>', () => {
    const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' });
    expect([...cards.keys()]).toHaveLength(CARD_KINDS.length * THEMES.length);
    for (const [name, svg] of cards) {
      expect(XMLValidator.validate(svg), name).toBe(true);
      expect(Buffer.byteLength(svg), name).toBeLessThanOrEqual(64 * 1024);
      expect(svg, name).not.toMatch(/<script|<image|<foreignObject|href=|url\(|@import|<a[\s>]/i);
      const root = parser.parse(svg).svg as Record<string, unknown>;
      expect(root, name).toMatchObject({ width: '495', role: 'img', xmlns: 'http://www.w3.org/2000/svg' });
      const [title, desc] = String(root['aria-labelledby']).split(' ');
      expect(svg, name).toContain(`<title id="${title}">`);
      expect(svg, name).toContain(`<desc id="${desc}">`);
      const style = String(root.style);
      if (name.endsWith('-auto')) expect(style, name).toContain('@media (prefers-color-scheme:dark)');
      else expect(style, name).not.toContain('@media');
    }
    // The themes differ in their colours only.
    expect(cards.get('stats-light')).not.toBe(cards.get('stats-dark'));
    expect(cards.get('stats-light')!.replace(/<style>.*<\/style>/, '')).toBe(cards.get('stats-dark')!.replace(/<style>.*<\/style>/, ''));
  });

  it('shows what it says: the default kind is stats, light; now lists the planted titles, cut with … to fit', async () => {
    const plain = await lk(['card', '--db', db]);
    expect(plain.stdout).toBe(cards.get('stats-light'));
    const nowCard = cards.get('now-light')!;
    expect(nowCard).toContain('🎮 Pixel Quest');
    expect(nowCard).toMatch(/>The Remarkably Long and Winding[^<]*…<\/text>/);
    expect(nowCard).toMatch(/>Ōtsuki 大月みなみ[^<]*…<\/text>/);
    // The whole texts stay in <desc> for a screen reader.
    expect(nowCard).toContain('One Very Small Village');
    const heatmap = cards.get('heatmap-light')!;
    expect(heatmap.match(/<rect [^>]*class="l\d"><title>/g)!.length).toBeGreaterThanOrEqual(52 * 7 + 1);
    // The last square is today, the mirror's last sync (no clock read): the two events planted today among its events.
    expect(heatmap).toMatch(/<title>2026-06-15: \d+ events<\/title><\/rect>\n<text/);
    expect(cards.get('year-light')).toContain('2026 so far');
  });

  it('the same mirror gives the same bytes: a second run, and -o into two folders', async () => {
    for (const kind of CARD_KINDS) {
      const again = await lk(['card', kind, '--theme', 'auto', '--db', db]);
      expect(again.stdout, kind).toBe(cards.get(`${kind}-auto`));
    }
    const files = [join(mkdtempSync(join(dataDir, 'a-')), 'card.svg'), join(mkdtempSync(join(dataDir, 'b-')), 'card.svg')];
    for (const file of files) expect((await lk(['card', 'heatmap', '-o', file, '--db', db])).code).toBe(0);
    expect(readFileSync(files[0]!, 'utf8')).toBe(cards.get('heatmap-light'));
    expect(readFileSync(files[1]!, 'utf8')).toBe(cards.get('heatmap-light'));
  });

  it('no card shows a private field, nor does lk serve’s /card/KIND.svg, which answers lk card’s bytes', async () => {
    for (const [name, svg] of cards) expect(leaked(svg), name).toEqual([]);
    const serving = await serve();
    try {
      const index = await (await fetch(serving.url)).text();
      for (const kind of CARD_KINDS) {
        expect(index).toContain(`href="/card/${kind}.svg"`);
        for (const theme of THEMES) {
          const response = await fetch(new URL(`/card/${kind}.svg${theme === 'light' ? '' : `?theme=${theme}`}`, serving.url));
          expect(response.status, `${kind} ${theme}`).toBe(200);
          expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
          expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
          const body = await response.text();
          expect(leaked(body), `${kind} ${theme}`).toEqual([]);
          expect(body, `${kind} ${theme}`).toBe(cards.get(`${kind}-${theme}`));
          const again = await fetch(new URL(`/card/${kind}.svg?theme=${theme}`, serving.url), {
            headers: { 'if-none-match': response.headers.get('etag')! },
          });
          expect(again.status).toBe(304);
        }
      }
      expect((await fetch(new URL('/card/nope.svg', serving.url))).status).toBe(404);
      const badTheme = await fetch(new URL('/card/stats.svg?theme=pink', serving.url));
      expect([badTheme.status, await badTheme.text()]).toEqual([400, 'invalid ?theme "pink": expected light, dark, auto\n']);
    } finally {
      expect((await serving.stop()).code).toBe(0);
    }
  });

  it('lk card nope and --theme pink exit 2 before anything is read or asked', async () => {
    const missing = join(dataDir, 'none.db');
    for (const args of [
      ['card', 'nope', '--db', missing],
      ['card', 'stats', '--theme', 'pink', '--db', missing],
      ['card', 'stats', '--csv', '--db', missing],
    ]) {
      await expectRefusedBeforeAnyRequest(bed, args);
      expect(existsSync(missing), args.join(' ')).toBe(false);
    }
  });

  describeWith(['chromium'], 'in chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await chromium.launch({ executablePath: chromiumPath()!, args: CHROMIUM_ARGS, headless: true });
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
    });

    it('every text is drawn inside the room it was measured for and inside the card; nothing is loaded', async () => {
      const folder = mkdtempSync(join(dataDir, 'browser-'));
      let cut = 0;
      // One page for every card, each in turn: a page of its own is a renderer process of its own (most of the time).
      const page = await browser.newPage();
      let shown = '';
      let requests: string[] = [];
      await page.route('**/*', (route) =>
        route.request().url() === shown ? route.continue() : (requests.push(route.request().url()), route.abort()),
      );
      for (const [name, svg] of cards) {
        const file = join(folder, `${name}.svg`);
        writeFileSync(file, svg);
        shown = pathToFileURL(file).href;
        requests = [];
        await page.goto(shown);
        const texts = (await page.evaluate(`[...document.querySelectorAll('text')].map((text) => {
          const box = text.getBBox();
          return { text: text.textContent, x: Number(text.getAttribute('x')), anchor: text.getAttribute('text-anchor') ?? 'start',
            room: Number(text.getAttribute('data-room')), length: text.getComputedTextLength(), left: box.x, right: box.x + box.width };
        })`)) as { text: string; x: number; anchor: string; room: number; length: number; left: number; right: number }[];
        const shapes = (await page.evaluate(
          `[...document.querySelectorAll('rect, circle')].map((shape) => { const box = shape.getBBox(); return [box.x, box.x + box.width]; })`,
        )) as [number, number][];
        expect(requests, name).toEqual([]);
        expect(texts.length, name).toBeGreaterThan(0);
        for (const text of texts) {
          const [from, to] =
            text.anchor === 'end'
              ? [text.x - text.room, text.x]
              : text.anchor === 'middle'
                ? [text.x - text.room / 2, text.x + text.room / 2]
                : [text.x, text.x + text.room];
          const where = `${name}: "${text.text}" at ${text.x} (${text.anchor}, room ${text.room}) drawn from ${text.left} to ${text.right}`;
          expect(text.length, where).toBeLessThanOrEqual(text.room);
          // The box of the glyphs' cells may reach past their advance by a side bearing: 1.5 px at most.
          expect(text.left, where).toBeGreaterThanOrEqual(Math.max(0, from) - 1.5);
          expect(text.right, where).toBeLessThanOrEqual(Math.min(495, to) + 1.5);
          if (text.text.endsWith('…')) cut += 1;
        }
        for (const [left, right] of shapes) expect([left >= 0, right <= 495], name).toEqual([true, true]);
      }
      await page.close();
      // The long name and the long title were cut in every theme.
      expect(cut).toBeGreaterThanOrEqual(THEMES.length * 2);
    }, 120_000);
  });
});
