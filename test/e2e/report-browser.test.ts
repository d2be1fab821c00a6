import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ReportFigures } from '../../src/report/figures.js';
import { reportPage } from '../../src/report/page.js';
import { CHROMIUM_ARGS, chromiumPath, describeWith } from '../support/outside-tools.js';
import { tempDir } from '../support/temp-dir.js';
import { HOSTILE_TITLE, sampleFigures } from '../support/report-figures.js';
import { startTestBed, type TestBed } from './harness.js';
import { hasSqlite, itWithSqlite } from '../support/sqlite-node.js';

// The report page in a real browser: Debian's chromium, headless, driven by playwright-core (which downloads no
// browser). A page made from sample figures (with hostile titles) on every Node; where node:sqlite exists, also the
// page `lk report` makes from a sandbox mirror, whose tables are read back and compared with `lk report --json`.

/** A browser's start and a page's rendering and PDF on a 2-core machine shared with other test runs. */
const BROWSER_TIMEOUT = 120_000;

/** An expression evaluated in the page (written as text: this project's TypeScript has no DOM types). */
function inPage<T>(page: Page, expression: string): Promise<T> {
  return page.evaluate(expression) as Promise<T>;
}

interface Visit {
  page: Page;
  consoleErrors: string[];
  /** Every request the page attempted other than its own file (each is aborted). */
  requests: string[];
}

interface Tab {
  visit(file: string, viewport: { width: number; height: number }, colorScheme: 'light' | 'dark'): Promise<Visit>;
  close(): Promise<void>;
}

describeWith(['chromium'], 'the report page in chromium', () => {
  let dir: string;
  let bed: TestBed | undefined;
  let started: Promise<Browser> | undefined;
  const contexts = new Map<boolean, Promise<BrowserContext>>();
  const pages: { name: string; file: string; figures: ReportFigures }[] = [];

  /** The file's one browser (started once, its profile a fresh folder of playwright's), in a context with JavaScript on
   *  or off: a context of its own is no browser process of its own. */
  function browser(javaScriptEnabled: boolean): Promise<BrowserContext> {
    let context = contexts.get(javaScriptEnabled);
    if (!context) {
      started ??= chromium.launch({ executablePath: chromiumPath()!, args: CHROMIUM_ARGS, headless: true });
      context = started.then((running) => running.newContext({ javaScriptEnabled }));
      contexts.set(javaScriptEnabled, context);
    }
    return context;
  }

  /**
   * A tab that visits the pages one after another: a tab of its own per visit was a renderer process of its own each
   * time. What each visit attempted (console errors, requests other than its own file, each aborted) is its own.
   */
  async function tab(context: BrowserContext): Promise<Tab> {
    const page = await context.newPage();
    let current: Visit & { own: string } = { page, own: '', consoleErrors: [], requests: [] };
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') current.consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => current.consoleErrors.push(error.message));
    await page.route('**/*', (route) =>
      route.request().url() === current.own ? route.continue() : (current.requests.push(route.request().url()), route.abort()),
    );
    page.on('request', (request) => {
      if (request.url() !== current.own && !current.requests.includes(request.url())) current.requests.push(request.url());
    });
    return {
      async visit(file, viewport, colorScheme) {
        current = { page, own: pathToFileURL(file).href, consoleErrors: [], requests: [] };
        await page.setViewportSize(viewport);
        // The screen, whatever the visit before emulated (print).
        await page.emulateMedia({ colorScheme, media: null });
        await page.goto(current.own, { waitUntil: 'load' });
        return current;
      },
      close: () => page.close(),
    };
  }

  /** A test that visits every page with JavaScript on or off, at one size and colour scheme, runs its checks, and
   *  then finds no console error and no request attempted. */
  function itOnEveryPage(
    title: string,
    how: { javaScript: boolean; viewport: { width: number; height: number }; colorScheme: 'light' | 'dark' },
    check: (visit: Visit, page: { name: string; shot: string }) => Promise<void>,
  ): void {
    it(
      title,
      async () => {
        const pageTab = await tab(await browser(how.javaScript));
        for (const { name, file } of pages) {
          const visited = await pageTab.visit(file, how.viewport, how.colorScheme);
          await check(visited, { name, shot: join(dir, `${name.replace(/\W+/g, '-')}-${how.viewport.width}.png`) });
          expect(visited.consoleErrors, name).toEqual([]);
          expect(visited.requests, name).toEqual([]);
        }
        await pageTab.close();
      },
      BROWSER_TIMEOUT,
    );
  }

  beforeAll(async () => {
    dir = tempDir('lk-report-browser-');
    const sample = join(dir, 'sample.html');
    writeFileSync(sample, reportPage(sampleFigures(), '2026-01-02T10:00:00.000Z'));
    pages.push({ name: 'sample figures with hostile titles', file: sample, figures: sampleFigures() });
    if (hasSqlite) {
      bed = await startTestBed({ entries: 150, rateLimit: 0, exportIntervalSeconds: 0 });
      const env = { LK_DATA_DIR: dir, LK_CACHE_DIR: join(dir, 'cache') };
      const db = join(dir, 'mirror.db');
      expect((await bed.lk(['sync', '--db', db], { env })).code).toBe(0);
      const file = join(dir, 'sandbox.html');
      expect((await bed.lk(['report', '--db', db, '--from', '2020-01-01', '--to', '2026-12-31', '-o', file], { env })).code).toBe(0);
      const json = await bed.lk(['report', '--db', db, '--from', '2020-01-01', '--to', '2026-12-31', '--json'], { env });
      pages.push({ name: 'the sandbox report', file, figures: JSON.parse(json.stdout) as ReportFigures });
    }
  }, BROWSER_TIMEOUT);

  afterAll(async () => {
    // A browser that failed to start has nothing to close; its folder goes all the same (tempDir).
    await Promise.allSettled([started?.then((running) => running.close())]);
    await bed?.sandbox.close();
  }, BROWSER_TIMEOUT);

  itOnEveryPage(
    'renders on a desktop in light mode: every chart drawn beside its table, no console error, no request attempted',
    { javaScript: true, viewport: { width: 1280, height: 900 }, colorScheme: 'light' },
    async ({ page }, { name, shot }) => {
      await page.screenshot({ path: shot, fullPage: true });
      expect(statSync(shot).size, name).toBeGreaterThan(10_000);
      const figures = page.locator('figure.chart-with-table');
      expect(await figures.count(), name).toBeGreaterThanOrEqual(5);
      for (const figure of await figures.all()) {
        expect(await figure.locator('svg path').count()).toBeGreaterThan(3);
        expect(await figure.locator('table tbody tr').count()).toBeGreaterThan(0);
        const [chart, table] = [await figure.locator('.chart').boundingBox(), await figure.locator('.numbers').boundingBox()];
        expect(chart!.width).toBeGreaterThan(300);
        expect(table!.x, 'the table is beside the chart').toBeGreaterThan(chart!.x + chart!.width - 1);
      }
    },
  );

  itOnEveryPage(
    'renders on a phone in dark mode: dark background, light text, nothing wider than the screen',
    { javaScript: true, viewport: { width: 390, height: 844 }, colorScheme: 'dark' },
    async ({ page }, { name }) => {
      const colours = await inPage<{ background: string; text: string }>(
        page,
        '({ background: getComputedStyle(document.body).backgroundColor, text: getComputedStyle(document.body).color })',
      );
      const brightness = (rgb: string) =>
        rgb
          .match(/\d+/g)!
          .slice(0, 3)
          .map(Number)
          .reduce((a, b) => a + b, 0) / 3;
      expect(brightness(colours.background), name).toBeLessThan(60);
      expect(brightness(colours.text), name).toBeGreaterThan(190);
      expect(await inPage<number>(page, 'document.documentElement.scrollWidth'), name).toBeLessThanOrEqual(390);
      expect(await page.locator('figure.chart-with-table svg').count()).toBeGreaterThanOrEqual(5);
    },
  );

  itOnEveryPage(
    'stays readable on a phone 390 px wide: chart text of 11 px or more as shown, every table whole or scrolling in its box',
    { javaScript: true, viewport: { width: 390, height: 844 }, colorScheme: 'light' },
    async ({ page }, { name }) => {
      // Each text of each chart shown, at the size it is drawn: its font size times the chart's scale on the screen.
      const sizes = await inPage<number[]>(
        page,
        `[...document.querySelectorAll('figure svg')].filter((svg) => svg.getBoundingClientRect().width > 0).flatMap((svg) => {
          const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
          return [...svg.querySelectorAll('text')].map((text) => parseFloat(getComputedStyle(text).fontSize) * scale);
        })`,
      );
      expect(sizes.length, name).toBeGreaterThan(20);
      expect(Math.min(...sizes), name).toBeGreaterThanOrEqual(11);
      const tables = await inPage<{ fits: boolean; scrolls: boolean }[]>(
        page,
        `[...document.querySelectorAll('.numbers')].map((box) => ({
          fits: box.scrollWidth <= box.clientWidth + 1,
          scrolls: ['auto', 'scroll'].includes(getComputedStyle(box).overflowX),
        }))`,
      );
      expect(tables.length, name).toBeGreaterThanOrEqual(5);
      for (const table of tables) expect(table.fits || table.scrolls, name).toBe(true);
    },
  );

  itOnEveryPage(
    'renders with JavaScript off just the same: title, charts and tables',
    { javaScript: false, viewport: { width: 1024, height: 768 }, colorScheme: 'light' },
    async ({ page }, { name }) => {
      await expect(page.locator('h1').textContent()).resolves.toMatch(/in review$/);
      expect(await page.locator('figure.chart-with-table svg').count(), name).toBeGreaterThanOrEqual(5);
      expect(await page.locator('figure.chart-with-table table').count(), name).toBe(await page.locator('figure.chart-with-table svg').count());
    },
  );

  it(
    'shows hostile server text as text: no element made of it, the title readable',
    async () => {
      const pageTab = await tab(await browser(true));
      const { page } = await pageTab.visit(pages[0]!.file, { width: 1280, height: 900 }, 'light');
      expect(await page.locator('script, img, iframe').count()).toBe(0);
      expect(await page.locator('h1').textContent()).toContain('<script>alert(1)</script><img src=x onerror=alert(2)>');
      expect(await page.locator('h1').textContent()).not.toContain('\u001b');
      expect(HOSTILE_TITLE).toContain('\u001b');
      await pageTab.close();
    },
    BROWSER_TIMEOUT,
  );

  it(
    'prints on A4 and Letter: no navigation, nothing wider than the paper, charts kept whole',
    async () => {
      const pageTab = await tab(await browser(true));
      for (const { name, file } of pages) {
        for (const [paper, widthPx] of [
          ['A4', 718],
          ['Letter', 740],
        ] as const) {
          // The printable width at 96 dpi: 210 mm (8.5 in) less the page's 12 mm margins.
          const { page } = await pageTab.visit(file, { width: widthPx, height: 1000 }, 'light');
          await page.emulateMedia({ media: 'print' });
          expect(await page.locator('nav').isVisible(), `${name} ${paper}`).toBe(false);
          expect(await inPage<number>(page, 'document.documentElement.scrollWidth'), `${name} ${paper}`).toBeLessThanOrEqual(widthPx);
          const breakInside = await inPage<string>(page, "getComputedStyle(document.querySelector('figure.chart-with-table')).breakInside");
          expect(breakInside).toBe('avoid');
          const pdf = await page.pdf({ format: paper, printBackground: false });
          expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
        }
      }
      await pageTab.close();
    },
    BROWSER_TIMEOUT,
  );

  // Where node:sqlite is missing (Node 20), lk report refuses: test/mirror/report.test.ts checks that instead.
  itWithSqlite(
    "the sandbox page's tables hold the numbers of lk report --json",
    async () => {
      const pageTab = await tab(await browser(false));
      const { file, figures } = pages[1]!;
      const { page } = await pageTab.visit(file, { width: 1280, height: 900 }, 'light');
      const rows = await inPage<number[][]>(
        page,
        `[...[...document.querySelectorAll('figure.chart-with-table')].find((f) => f.querySelector('figcaption').textContent === 'Events by month')
             .querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.textContent.replace(/,/g, ''))))`,
      );
      const domains = Object.keys(figures.domains) as (keyof ReportFigures['domains'])[];
      // A period that ends after today shows its months up to the one it covers.
      const through = figures.period.through?.slice(0, 7);
      expect(rows).toEqual(
        figures.months
          .flatMap((name, month) => (through !== undefined && name > through ? [] : [month]))
          .map((month) => [...domains.map((domain) => figures.domains[domain]!.eventsByMonth[month]), figures.total.eventsByMonth[month]]),
      );
      expect(await page.locator('.fact', { hasText: 'events' }).first().locator('.value').textContent()).toBe(
        figures.total.events.toLocaleString('en-US'),
      );
      // Seven years of months and every step of five rating scales: about 300 KB, still one light file.
      expect(readFileSync(file, 'utf8').length).toBeLessThan(320_000);
      await pageTab.close();
    },
    BROWSER_TIMEOUT,
  );
});
