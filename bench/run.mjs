// `npm run bench`: every benchmark in one run on one machine, printed as a table of medians and ratios with their
// targets, and written to bench/RESULTS.md with the date and the machine. Not part of `npm test`.
//
//   npm run bench                 # everything
//   npm run bench -- startup memory   # only these groups
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, release } from 'node:os';
import { join } from 'node:path';
import { root } from './lib.mjs';
import { conversion } from './conversion.mjs';
import { jq } from './jq.mjs';
import { memory } from './memory.mjs';
import { mirror } from './mirror.mjs';
import { mirrorReads } from './mirror-reads.mjs';
import { paging } from './paging.mjs';
import { report } from './report.mjs';
import { requests } from './requests.mjs';
import { startup } from './startup.mjs';
import { throughput } from './throughput.mjs';

const groups = { startup, throughput, memory, conversion, requests, paging, jq, mirror, mirrorReads, report };
groups.mcp = (await import('./mcp.mjs')).mcp;
groups.overview = (await import('./overview.mjs')).overview;
groups.quickSync = (await import('./quick-sync.mjs')).quickSync;
groups.diff = (await import('./diff.mjs')).diff;
groups.lines = (await import('./lines.mjs')).nodeLinesBench;
groups.sea = (await import('./sea.mjs')).sea;
groups.publish = (await import('./publish.mjs')).publish;
const chosen = process.argv.slice(2).filter((name) => !name.startsWith('-'));
for (const name of chosen) if (!groups[name]) throw new Error(`unknown benchmark "${name}"; known: ${Object.keys(groups).join(', ')}`);

const rows = [];
for (const [name, bench] of Object.entries(groups)) {
  if (chosen.length && !chosen.includes(name)) continue;
  process.stderr.write(`bench: ${name}…\n`);
  try {
    rows.push(...(await bench()));
  } catch (error) {
    // One broken group must not cost the figures of the others.
    process.stderr.write(`bench: ${name} failed: ${error.stack ?? error}\n`);
    rows.push({ figure: `${name}: failed`, value: String(error.message ?? error).slice(0, 80), target: 'runs', pass: false });
  }
}

const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Linux ${release()}, Node ${process.version}`;
const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
const header = ['figure', 'median', 'target', ''];
const body = rows.map((r) => [r.figure, r.value, r.target, r.target ? (r.unjudged ? 'NOT JUDGED' : r.pass ? 'ok' : 'MISSED') : '']);
const widths = header.map((_, i) => Math.max(header[i].length, ...body.map((cells) => cells[i].length)));
const line = (cells) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
const table = [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');

// Every figure is of the Node running this (npm run bench on another: `path/to/node bench/run.mjs`).
process.stdout.write(`${machine}\n\n${table}\n`);
const figures = `\`npm run bench\` on ${date}\n\nMachine: ${machine}\n\n${table}\n\nMedians of interleaved runs in one process; start-up figures run without NODE_EXTRA_CA_CERTS on both sides.\n`;
if (!chosen.length) writeResults(join(root, 'bench/RESULTS.md'), figures);

if (body.some((cells) => cells[3] === 'MISSED' || cells[3] === 'NOT JUDGED')) process.exitCode = 1;

/**
 * The run's figures replace what lies between RESULTS.md's two markers; the rest of the file is written by hand (why
 * each reference is what it is, profiles, what stays missed) and is kept as it is.
 */
function writeResults(file, figures) {
  const start = '<!-- npm run bench: figures from here -->';
  const end = '<!-- npm run bench: figures to here -->';
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const from = old.indexOf(start);
  const to = old.indexOf(end, from);
  const [before, after] = from >= 0 && to >= 0 ? [old.slice(0, from), old.slice(to + end.length)] : ['# Benchmark results\n\n', '\n'];
  writeFileSync(file, `${before}${start}\n\n${figures}\n${end}${after}`);
}
