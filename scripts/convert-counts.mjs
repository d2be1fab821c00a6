// Rows `lk convert` writes, leaves out and leaves to a title match, per target, on the sandbox's data: counted from
// the files themselves, so that two builds (main's and a branch's) are measured the same way.
//
//   node scripts/convert-counts.mjs [--lk bin/lk.cjs] [--variant default|alt] [--mirror | --listings]
//
// --variant alt is the second implementation (UUID ids, other field names). Its export is the default's with UUIDs;
// its listings carry its own field names (no phase, addedAt, progress {current, unit}, events' `type`): --listings
// serves them as the export of a server of its own. --mirror converts from an `lk sync` mirror (Node 22.13+).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import { XMLParser } from 'fast-xml-parser';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const lk = resolve(option('--lk', 'bin/lk.cjs'));
const variant = option('--variant', 'default');
const fromMirror = args.includes('--mirror');
const fromListings = args.includes('--listings');

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
const lkRunSync = (argv) => spawnSync(process.execPath, [lk, ...argv], { env, encoding: 'utf8', maxBuffer: 1 << 28 });
/** Asynchronous: a server of this process (--listings) must answer while lk runs. */
function lkRun(argv) {
  const child = spawn(process.execPath, [lk, ...argv], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((done) => child.on('close', (status) => done({ status, stderr })));
}

/** The sandbox's library, history and reviews listings, as an export document from a loopback server. */
async function serveListings() {
  const listing = (command) => JSON.parse(lkRunSync([command, '--all', '--json']).stdout);
  const body = JSON.stringify({ library: listing('library'), history: listing('history'), reviews: listing('reviews') });
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(req.url.startsWith('/v1/export') ? body : JSON.stringify({ account: { username: 'listings' } }));
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  env.LK_BASE_URL = `http://127.0.0.1:${server.address().port}`;
  env.LK_CACHE_DIR = join(home, 'listings-cache');
  return server;
}

const listingsServer = fromListings ? await serveListings() : undefined;
try {
  const db = join(home, 'mirror.db');
  if (fromMirror) {
    const sync = await lkRun(['sync', '--db', db]);
    if (sync.status !== 0) throw new Error(`lk sync failed: ${sync.stderr}`);
  }
  console.log(`| target | exit | rows written | left out (unmatched file + skipped) | matched by title |`);
  console.log(`|---|---|---|---|---|`);
  for (const [target, extension] of Object.entries(TARGETS)) {
    const file = join(home, `${target}.${extension}`);
    const result = await lkRun(['convert', target, '-o', file, ...(fromMirror ? ['--db', db] : [])]);
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
  listingsServer?.close();
  sandbox.child.kill();
  rmSync(home, { recursive: true, force: true });
}
