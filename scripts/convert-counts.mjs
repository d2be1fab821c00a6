// Rows `lk convert` writes, leaves out and leaves to a title match, per target, on the sandbox's data: counted from
// the files themselves, so that two builds (main's and a branch's) are measured the same way.
//
//   node scripts/convert-counts.mjs [--lk bin/lk.cjs] [--variant default|alt] [--mirror]
//
// --variant alt is the second implementation (UUID ids, other field names); --mirror converts from an `lk sync`
// mirror instead of the export (the alt variant's listings carry its own field names; needs node:sqlite, Node 22.13+).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import { XMLParser } from 'fast-xml-parser';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const lk = resolve(option('--lk', 'bin/lk.cjs'));
const variant = option('--variant', 'default');
const fromMirror = args.includes('--mirror');

const TARGETS = { letterboxd: 'csv', goodreads: 'csv', yamtrack: 'csv', mal: 'xml' };
/** A written row the importer can only match by title: no id of the catalogue it matches on. */
const BY_TITLE = {
  letterboxd: (row) => row.tmdbID === '' && row.imdbID === '' && row.LetterboxdURI === '',
  goodreads: (row) => row.ISBN.replace(/[="]/g, '') === '' && row.ISBN13.replace(/[="]/g, '') === '',
  yamtrack: (row) => row.media_id === '',
  mal: (row) => String(row.series_animedb_id) === '0',
};

function rowsOf(target, text) {
  if (target !== 'mal') return parse(text, { columns: true });
  const doc = new XMLParser({ parseTagValue: false }).parse(text);
  return [].concat(doc.myanimelist.anime ?? []);
}

async function startSandbox() {
  const child = spawn(process.execPath, [lk, 'sandbox', '--json', '--rate-limit', '0', '--variant', variant], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  for await (const chunk of child.stdout) {
    out += chunk;
    if (out.includes('\n')) break;
  }
  const info = JSON.parse(out.split('\n')[0]);
  return { child, url: info.url, key: info.keys[0].key };
}

const sandbox = await startSandbox();
const home = mkdtempSync(join(tmpdir(), 'lk-convert-counts-'));
const env = {
  ...process.env,
  LK_BASE_URL: sandbox.url,
  LK_API_KEY: sandbox.key,
  LK_CONFIG_DIR: join(home, 'config'),
  LK_CACHE_DIR: join(home, 'cache'),
  LK_DATA_DIR: join(home, 'data'),
  TZ: 'UTC',
};
const lkRun = (argv) => spawnSync(process.execPath, [lk, ...argv], { env, encoding: 'utf8' });
try {
  const db = join(home, 'mirror.db');
  if (fromMirror) {
    const sync = lkRun(['sync', '--db', db]);
    if (sync.status !== 0) throw new Error(`lk sync failed: ${sync.stderr}`);
  }
  console.log(`| target | exit | rows written | left out (unmatched file + skipped) | matched by title |`);
  console.log(`|---|---|---|---|---|`);
  for (const [target, extension] of Object.entries(TARGETS)) {
    const file = join(home, `${target}.${extension}`);
    const result = lkRun(['convert', target, '-o', file, ...(fromMirror ? ['--db', db] : [])]);
    const written = existsSync(file) ? rowsOf(target, readFileSync(file, 'utf8')) : [];
    const unmatchedFile = join(home, `${target}-unmatched.csv`);
    // The unmatched file's rows; when nothing was written there is no file, and the summary's count says it.
    const setAside = Number(/^lk: (\d+) rows? the importer would fail on/m.exec(result.stderr)?.[1] ?? 0);
    const unmatched = existsSync(unmatchedFile) ? parse(readFileSync(unmatchedFile, 'utf8'), { columns: true }).length : setAside;
    const skipped = Number(/^lk: (\d+) skipped:/m.exec(result.stderr)?.[1] ?? 0);
    const byTitle = written.filter(BY_TITLE[target]).length;
    console.log(`| ${target} | ${result.status} | ${written.length} | ${unmatched} + ${skipped} | ${byTitle} |`);
  }
} finally {
  sandbox.child.kill();
  rmSync(home, { recursive: true, force: true });
}
