import { mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import axe from 'axe-core';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CHROMIUM_ARGS, chromiumPath, describeWith } from '../support/outside-tools.js';
import { describeWithSqlite } from '../support/sqlite-node.js';
import { syncedMirror } from '../support/synced-mirror.js';
import { tempDir } from '../support/temp-dir.js';
import type { TestBed } from './harness.js';

// Issue 60: the site lk publish writes, in Debian's chromium (headless, driven by playwright-core): each page loads
// nothing but the site's own files from file://, needs no horizontal scroll at 390 and 1280 px in light and dark, and
// axe-core finds nothing serious or critical on it.

const BROWSER_TIMEOUT = 180_000;
/** axe-core's script, injected into each page (the package's own entry: its `source`). */
const axeSource = axe.source;

interface AxeResult {
  violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[];
}

describeWith(['chromium'], 'the site lk publish writes, in chromium', () => {
  describeWithSqlite('from a synced sandbox', () => {
    let bed: TestBed;
    let site: string;
    let context: BrowserContext;
    const pages: string[] = [];

    beforeAll(async () => {
      const synced = await syncedMirror(150, 'lk-site-browser-');
      bed = synced.bed;
      site = join(synced.dir, 'site');
      const published = await bed.lk(['publish', site, '--lists', 'all', '--db', synced.db], { key: null, env: { LK_DATA_DIR: synced.dir } });
      expect(published.code, published.stderr).toBe(0);
      const files = readdirSync(site, { recursive: true }).map(String);
      // One page of each kind: the index, the diary and its second page, the lists and one list, the years and one year.
      for (const wanted of [
        /^index\.html$/,
        /^diary\.html$/,
        /^diary-2\.html$/,
        /^lists\.html$/,
        /^lists\/.+\.html$/,
        /^years\.html$/,
        /^year\/\d{4}\.html$/,
      ]) {
        const found = files.find((file) => wanted.test(file));
        expect(found, String(wanted)).toBeDefined();
        pages.push(found!);
      }
      context = await chromium.launchPersistentContext(mkdtempSync(join(tempDir('lk-site-profile-'), 'p-')), {
        executablePath: chromiumPath()!,
        args: CHROMIUM_ARGS,
        headless: true,
        // axe-core is injected as a script; the year's page (lk report's) forbids scripts by its policy.
        bypassCSP: true,
      });
    }, BROWSER_TIMEOUT);

    afterAll(async () => {
      await context?.close();
      await bed?.sandbox.close();
    }, BROWSER_TIMEOUT);

    // axe-core once per page in each theme (its contrast rules are what a theme changes), at one width each: a run
    // is most of the file's time, and what a width changes (sideways scrolling) is measured at every width and theme.
    for (const { viewport, colorScheme, audit } of [
      { viewport: { width: 390, height: 844 }, colorScheme: 'light', audit: true },
      { viewport: { width: 390, height: 844 }, colorScheme: 'dark', audit: false },
      { viewport: { width: 1280, height: 900 }, colorScheme: 'light', audit: false },
      { viewport: { width: 1280, height: 900 }, colorScheme: 'dark', audit: true },
    ] as const) {
      it(
        `at ${viewport.width} px, ${colorScheme}: nothing from elsewhere, no horizontal scroll${audit ? ', no serious or critical axe finding' : ''}`,
        async () => {
          const root = pathToFileURL(`${site}/`).href;
          // One page visits each file in turn: a page of its own is a renderer process of its own, and axe-core is
          // injected afresh at each load.
          const page = await context.newPage();
          let elsewhere: string[] = [];
          page.on('request', (request) => {
            if (!request.url().startsWith(root)) elsewhere.push(request.url());
          });
          await page.setViewportSize(viewport);
          await page.emulateMedia({ colorScheme });
          for (const file of pages) {
            elsewhere = [];
            await page.goto(new URL(file, root).href, { waitUntil: 'load' });
            expect(elsewhere, file).toEqual([]);
            const widths = (await page.evaluate(
              '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
            )) as {
              scroll: number;
              client: number;
            };
            expect(widths.scroll, `${file} scrolls sideways at ${viewport.width} px`).toBeLessThanOrEqual(widths.client);
            if (!audit) continue;
            await page.addScriptTag({ content: axeSource });
            const result = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as AxeResult;
            const serious = result.violations
              .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
              .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
            expect(serious, `${file} (${colorScheme}, ${viewport.width} px)`).toEqual([]);
          }
          await page.close();
        },
        BROWSER_TIMEOUT,
      );
    }
  });
});
