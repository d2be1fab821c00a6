// lk mcp under an assistant's load: 1,000 `search` calls pipelined in one write (and 1,000 `sql` calls, which run in
// query processes), over a mirror of 1,234 entries (the size issue 34 was reproduced with). Wall time from the write
// to the last answer, median of interleaved runs; peak RSS of lk mcp (its own, at exit) and of lk mcp with its
// children together (sampled from /proc while the calls run); the most processes at once.
//
//   node bench/mcp.mjs            # alone (npm run build first)
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { lkBin, median, ms, peakRssPreload, row } from './lib.mjs';
import { onSyncedMirror } from './mirror.mjs';

const CALLS = 1000;

export async function mcp({ runs = 3, entries = 1234 } = {}) {
  return onSyncedMirror(entries, async ({ node, env, db }) => {
    const kinds = {
      search: (id) => ({ name: 'search', arguments: { text: id % 2 ? 'the' : 'story' } }),
      sql: (id) => ({ name: 'sql', arguments: { query: `SELECT ${id} AS n, count(*) AS entries FROM entries WHERE rating >= 7` } }),
    };
    const samples = { search: [], sql: [] };
    for (let i = 0; i < runs; i++) for (const kind of Object.keys(kinds)) samples[kind].push(await pipelined(node, env, db, kinds[kind]));
    const rows = [];
    for (const kind of Object.keys(kinds)) {
      const all = samples[kind];
      const answered = Math.min(...all.map((s) => s.answered));
      const most = Math.max(...all.map((s) => s.mostProcesses));
      rows.push(
        row(
          `mcp: ${CALLS.toLocaleString('en')} pipelined ${kind} calls, wall time`,
          ms(median(all.map((s) => s.ms))),
          `all ${CALLS} answered`,
          answered === CALLS,
        ),
      );
      rows.push(
        row(
          `mcp: peak RSS of lk mcp, and with its children (${kind})`,
          `${Math.max(...all.map((s) => s.peakRssMb)).toFixed(0)} MB, ${Math.max(...all.map((s) => s.peakTreeMb)).toFixed(0)} MB`,
          `≤ lk + 2 processes (saw lk + ${most - 1})`,
          most <= 3,
        ),
      );
    }
    return rows;
  });
}

/** One lk mcp process answering CALLS calls written at once: wall time, peak RSS, the most processes seen. */
function pipelined(node, env, db, callOf) {
  const lines = [
    {
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    },
  ];
  lines.push({ jsonrpc: '2.0', method: 'notifications/initialized' });
  for (let id = 0; id < CALLS; id++) lines.push({ jsonrpc: '2.0', id, method: 'tools/call', params: callOf(id) });
  const input = lines.map((line) => `${JSON.stringify(line)}\n`).join('');
  return new Promise((resolve, reject) => {
    const child = spawn(node, ['--import', pathToFileURL(peakRssPreload).href, lkBin, 'mcp', '--db', db], {
      env,
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    });
    let answered = 0;
    let rest = '';
    let rssText = '';
    let stderr = '';
    let peakTree = 0;
    let mostProcesses = 1;
    let started;
    let ended;
    const watch = setInterval(() => {
      const tree = [child.pid, ...childrenOf(child.pid)];
      mostProcesses = Math.max(mostProcesses, tree.length);
      peakTree = Math.max(
        peakTree,
        tree.reduce((sum, pid) => sum + rssOf(pid), 0),
      );
    }, 10);
    child.stdout.on('data', (chunk) => {
      const text = rest + chunk;
      const complete = text.split('\n');
      rest = complete.pop();
      for (const line of complete) {
        if (JSON.parse(line).id === 'init') continue;
        answered += 1;
        if (answered === CALLS) {
          ended = process.hrtime.bigint();
          child.stdin.end();
        }
      }
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdio[3].on('data', (chunk) => (rssText += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(watch);
      if (code !== 0) return reject(new Error(`lk mcp exited ${code}: ${stderr.trim().slice(0, 500)}`));
      if (/Warning/.test(stderr)) return reject(new Error(`lk mcp warned: ${stderr.trim().slice(0, 500)}`));
      const peakRssMb = Number(rssText) / 1024 / 1024;
      resolve({
        ms: Number((ended ?? process.hrtime.bigint()) - started) / 1e6,
        answered,
        peakRssMb,
        peakTreeMb: Math.max(peakTree / 1024, peakRssMb),
        mostProcesses,
      });
    });
    started = process.hrtime.bigint();
    child.stdin.write(input);
  });
}

/** The children of `pid`: the children lists of its threads in /proc (a scan of every process would slow the run). */
function childrenOf(pid) {
  const found = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean);
      found.push(...children.map(Number));
    }
  } catch {
    // gone while we looked
  }
  return found;
}

/** The resident set of `pid` in KB, 0 once it is gone. */
function rssOf(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const r of await mcp()) console.log(`${r.figure}: ${r.value} (${r.target}: ${r.pass ? 'ok' : 'MISSED'})`);
}
