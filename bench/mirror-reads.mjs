// Reading a 100,000-entry mirror (issue 33): lk's own offline answers (in lk's process) beside `node -e 0`; the
// --offline listings read to their end beside `lk sql` over the same rows; and `lk sql` streaming: the peak RSS of lk
// and its query process together (and each one's own peak), and `| head -1`. Runs under the Node that
// bench/mirror.mjs picks (Node 24 here).
//
//   node bench/mirror-reads.mjs      # alone (npm run build first)
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { onLargeAccount } from './mirror.mjs';
import { interleaved, lkBin, ms, ratio, row, run } from './lib.mjs';

/** `pid` and every process below it, from /proc. */
function treeOf(pid) {
  const children = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(parent)) children.set(parent, []);
      children.get(parent).push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  const tree = [];
  const visit = (id) => {
    tree.push(id);
    for (const child of children.get(id) ?? []) visit(child);
  };
  visit(pid);
  return tree;
}

/** A figure of /proc/PID/status (VmRSS, VmHWM) in bytes; 0 once the process has gone. */
function statusBytes(pid, field) {
  try {
    const found = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return found ? Number(found[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Runs lk to its end with stdout read and dropped. `peak`: the largest sum of lk's and its children's RSS sampled
 * together; `each`: each process's own peak (VmHWM), lk first, as last seen before it ended (MB).
 */
function peakTreeRss(node, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [lkBin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let peak = 0;
    const each = new Map();
    const timer = setInterval(() => {
      let sum = 0;
      for (const pid of treeOf(child.pid)) {
        sum += statusBytes(pid, 'VmRSS');
        each.set(pid, Math.max(each.get(pid) ?? 0, statusBytes(pid, 'VmHWM')));
      }
      peak = Math.max(peak, sum);
    }, 20);
    child.stdout.resume();
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => {
      clearInterval(timer);
      const mb = (bytes) => bytes / 1024 / 1024;
      if (code !== 0) reject(new Error(`lk ${args.join(' ')} exited ${code}: ${stderr.slice(0, 300)}`));
      else resolve({ peak: mb(peak), each: [...each.values()].map(mb) });
    });
  });
}

/** `lk … | head -1`: the time until the first line, and until lk has ended once its reader went away. */
function headOne(node, args, env) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(node, [lkBin, ...args], { env, stdio: ['ignore', 'pipe', 'ignore'] });
    let firstLine;
    child.stdout.on('data', (chunk) => {
      if (firstLine === undefined && chunk.includes(10)) {
        firstLine = Number(process.hrtime.bigint() - started) / 1e6;
        child.stdout.destroy(); // as head does once it has its line
      }
    });
    child.on('error', reject);
    child.on('close', () => resolve({ firstLine: firstLine ?? Number.NaN, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
  });
}

export async function mirrorReads({ runs = 5, entries = 100_000 } = {}) {
  const rows = [];
  await onLargeAccount(entries, async ({ node, version, env }) => {
    await run(node, [lkBin, 'sync', '-q'], { env });
    const n = entries.toLocaleString('en-US');
    const lk =
      (...args) =>
      () =>
        run(node, [lkBin, ...args], { env });

    // Start-up of lk's own offline answers, beside the least a Node process costs.
    const floor = () => run(node, ['-e', '0'], { env });
    const quick = [
      ['lk search night', lk('search', 'night', '--json')],
      ['lk sql "SELECT count(*) FROM entries"', lk('sql', 'SELECT count(*) FROM entries', '--json')],
      ['lk library --offline --limit 20', lk('library', '--offline', '--limit', '20', '--json')],
      ['lk stats --offline', lk('stats', '--offline', '--json')],
    ];
    const [f, ...timed] = await interleaved([floor, ...quick.map(([, measure]) => measure)], runs);
    rows.push(row(`mirror reads: node -e 0 (floor, ${version}), ${n} entries`, ms(f.median), '', true));
    for (const [index, [name]] of quick.entries()) {
      const value = timed[index].median;
      rows.push(row(`mirror reads: ${name}`, `${ms(value)} (${ratio(value / f.median)})`, '≤ 2.5× floor', value / f.median <= 2.5));
    }

    // Listings read to their end, beside lk sql writing the same rows (the same statement's columns as ndjson).
    const historySql =
      'SELECT h.json, w.json AS work FROM history h LEFT JOIN works w ON w.id = coalesce(h.work_id, (SELECT e.work_id FROM entries e WHERE e.id = h.entry_id)) WHERE h.date IS NOT NULL ORDER BY h.position';
    const pairs = [
      ['history --offline --all', lk('history', '--offline', '--all', '--ndjson', '-q'), lk('sql', historySql, '--ndjson', '-q')],
      [
        'library --offline --all',
        lk('library', '--offline', '--all', '--ndjson', '-q'),
        lk('sql', 'SELECT json FROM entries ORDER BY position', '--ndjson', '-q'),
      ],
    ];
    for (const [name, listing, sql] of pairs) {
      const [l, s] = await interleaved([listing, sql], Math.min(runs, 3));
      rows.push(
        row(
          `mirror reads: lk ${name} --ndjson`,
          `${ms(l.median)} (${ratio(l.median / s.median)} lk sql: ${ms(s.median)})`,
          '≤ 2× lk sql',
          l.median / s.median <= 2,
        ),
      );
    }

    // lk sql streaming: memory of lk and its query process together, and the first line of a huge result.
    const everything = ['sql', 'SELECT * FROM history', '--ndjson', '-q'];
    const peaks = [];
    for (let i = 0; i < Math.min(runs, 3); i++) peaks.push(await peakTreeRss(node, everything, env));
    const top = peaks.reduce((a, b) => (b.peak > a.peak ? b : a));
    // The same two processes with one row to write: what they take before any row is relayed.
    const rest = await peakTreeRss(node, ['sql', 'SELECT 1', '--ndjson', '-q'], env);
    const split = ({ each }) => each.map((mb) => mb.toFixed(0)).join(' + ');
    rows.push(
      row(
        'mirror reads: lk sql "SELECT * FROM history" --ndjson, peak RSS lk + query process',
        `${top.peak.toFixed(0)} MB (${split(top)}; SELECT 1: ${split(rest)})`,
        '< 120 MB',
        top.peak < 120,
      ),
    );
    const heads = [];
    for (let i = 0; i < runs; i++) heads.push(await headOne(node, everything, env));
    const headMs = heads.map((h) => h.ms).sort((a, b) => a - b)[Math.floor(heads.length / 2)];
    rows.push(row('mirror reads: lk sql "SELECT * FROM history" --ndjson | head -1', ms(headMs), '< 1 s', headMs < 1000));
  });
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await mirrorReads()) console.log(`${r.figure}\t${r.value}\t${r.target}\t${r.target ? (r.pass ? 'ok' : 'MISSED') : ''}`);
}
