// `node scripts/screenshots.mjs [cards] [site]`: the README's screenshots, made from the sandbox's invented demo data (never a
// real account) with lk's own commands, drawn by Debian's chromium (headless, through playwright-core, which downloads
// no browser) into docs/images/. Needs `npm run build` first and a Node with node:sqlite (22.13+) for the mirror.
// Each target is one function below (TARGETS); with no argument, every target is made.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from './chromium-args.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const lk = join(root, 'bin', 'lk.cjs');
const images = join(root, 'docs', 'images');
const CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));

const CARD_KINDS = ['stats', 'now', 'heatmap', 'year'];
const SHOWN_THEMES = ['light', 'dark'];

/** The sandbox (lk sandbox --json), its URL and demo keys, until stop(). */
async function startSandbox() {
  const child = spawn(process.execPath, [lk, 'sandbox', '--json', '--entries', '500', '--rate-limit', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await new Promise((resolve, reject) => {
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      text += chunk;
      try {
        resolve(JSON.parse(text));
      } catch {
        // not the whole object yet
      }
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before it was ready`)));
  });
  return { info, stop: () => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))) };
}

/** lk with these arguments against the sandbox, in a home of its own; its stdout, or a thrown error. */
function lkRun(home, info, args) {
  const env = {
    ...process.env,
    LK_BASE_URL: info.url,
    LK_API_KEY: info.keys.find((key) => key.name === 'full').key,
    LK_CONFIG_DIR: join(home, 'config'),
    LK_CACHE_DIR: join(home, 'cache'),
    LK_DATA_DIR: join(home, 'data'),
  };
  const result = spawnSync(process.execPath, [lk, ...args], { env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`lk ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return result.stdout;
}

/** docs/images/card-KIND-THEME.png: each card in each theme, at twice its size, on a page of the theme's colour. */
async function cards({ home, info, browser }) {
  const db = join(home, 'mirror.db');
  lkRun(home, info, ['sync', '-q', '--db', db]);
  for (const kind of CARD_KINDS) {
    for (const theme of SHOWN_THEMES) {
      const svg = lkRun(home, info, ['card', kind, '--theme', theme, '--db', db]);
      const page = await browser.newPage({ deviceScaleFactor: 2, colorScheme: theme });
      await page.setContent(`<!doctype html><body style="margin:0;padding:0;display:inline-block">${svg}</body>`);
      const card = page.locator('svg');
      const file = join(images, `card-${kind}-${theme}.png`);
      await card.screenshot({ path: file, omitBackground: true });
      await page.close();
      process.stdout.write(`${file}\n`);
    }
  }
}

/** docs/images/site-PAGE-WIDTH.png: the index, the diary and a year of lk publish's site, at 390 and 1280 px. */
async function site({ home, info, browser }) {
  const db = join(home, 'mirror.db');
  if (!existsSync(db)) lkRun(home, info, ['sync', '-q', '--db', db]);
  const dir = join(home, 'site');
  lkRun(home, info, ['publish', '-q', dir, '--db', db]);
  const year = new Date().getUTCFullYear() - 1;
  for (const [name, file] of [
    ['index', 'index.html'],
    ['diary', 'diary.html'],
    ['year', `year/${year}.html`],
  ]) {
    for (const width of [390, 1280]) {
      const page = await browser.newPage({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });
      await page.goto(`file://${join(dir, file)}`);
      const shot = join(images, `site-${name}-${width}.png`);
      await page.screenshot({ path: shot });
      await page.close();
      process.stdout.write(`${shot}\n`);
    }
  }
}

const TARGETS = { cards, site };

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in TARGETS));
if (unknown.length > 0) {
  process.stderr.write(`screenshots: no target ${unknown.join(', ')} (targets: ${Object.keys(TARGETS).join(', ')})\n`);
  process.exit(2);
}
if (!CHROMIUM) {
  process.stderr.write('screenshots: needs chromium (apt install chromium)\n');
  process.exit(1);
}
mkdirSync(images, { recursive: true });
const home = mkdtempSync(join(tmpdir(), 'lk-screenshots-'));
const sandbox = await startSandbox();
// Offline, with the tests' own flags.
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
try {
  for (const name of asked.length > 0 ? asked : Object.keys(TARGETS)) await TARGETS[name]({ home, info: sandbox.info, browser });
} finally {
  await browser.close();
  await sandbox.stop();
  rmSync(home, { recursive: true, force: true });
}
