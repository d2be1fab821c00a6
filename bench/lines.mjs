// Node 22, 24 and 26 side by side (issue 36), each figure a ratio to the least a Node program can do for the same
// output, measured in one run with every candidate of every Node line interleaved:
//   - `lk whoami` and `lk library --limit 20` ÷ a CommonJS node:http GET (bench/http-get.cjs); a CommonJS fetch GET
//     (bench/fetch-get.cjs) shown beside it. Target ≤ 1.8× (issue 47).
//   - `lk --version`, `lk --help` and a Tab completion (`lk completion --profiles`) ÷ `node -e 0`. Target ≤ 1.2×.
//   - `lk library --all --ndjson` over 100,000 entries ÷ the same-output loop (bench/same-output-loop.cjs), same bytes
//     checked. Target ≤ 1.2×, with lk's peak RSS < 120 MB (issue 47).
//   - `lk report` over a 100,000-entry mirror (bench/report.mjs). Target < 1 s.
// The Node binaries are those of scripts/node-versions.mjs (.tmp/node/<major>, installed on first use).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { cleanEnv, interleaved, lkBin, lkEnv, median, ms, ratio, root, row, run, scratch, startSandbox, startupRow } from './lib.mjs';
import { report } from './report.mjs';

const MAJORS = ['22', '24', '26'];
const peakRssCjs = join(root, 'bench/peak-rss.cjs');

function nodeLines() {
  const out = execFileSync(process.execPath, [join(root, 'scripts/node-versions.mjs'), ...MAJORS], { encoding: 'utf8' });
  return out
    .trim()
    .split('\n')
    .map((line) => line.split(' '))
    .map(([major, bin]) => ({ major, bin }));
}

/** One cell per Node line: "22: 1.85× · 24: 1.80× · 26: 1.91×". */
const sideBySide = (lines, format) => lines.map((line, i) => `${line.major}: ${format(i)}`).join(' · ');

async function startup(lines, runs) {
  const work = scratch();
  const sandbox = await startSandbox({ rateLimit: 0 });
  try {
    const env = lkEnv(sandbox, work.dir);
    const kinds = {
      floor: (node) => run(node, ['-e', '0'], { env: cleanEnv() }),
      httpGet: (node) => run(node, [join(root, 'bench/http-get.cjs')], { env }),
      fetchGet: (node) => run(node, [join(root, 'bench/fetch-get.cjs')], { env }),
      whoami: (node) => run(node, [lkBin, 'whoami'], { env }),
      library: (node) => run(node, [lkBin, 'library', '--limit', '20'], { env }),
      version: (node) => run(node, [lkBin, '--version'], { env }),
      help: (node) => run(node, [lkBin, '--help'], { env }),
      tab: (node) => run(node, [lkBin, 'completion', '--profiles'], { env }),
    };
    const names = Object.keys(kinds);
    const candidates = lines.flatMap(({ bin }) => names.map((name) => () => kinds[name](bin)));
    // Warm the file cache and each line's compile cache once, so that no measured run is a first one.
    for (const candidate of candidates) await candidate();
    const results = await interleaved(candidates, runs);
    const at = (i, name) => results[i * names.length + names.indexOf(name)].median;
    // Judged by the slowest line's floor: a ratio is reported only if every line's was quiet.
    const judged = (name) => ({
      floorMs: Math.max(...lines.map((_, i) => at(i, 'floor'))),
      plain: sideBySide(lines, (i) => ms(at(i, name))),
    });
    const rows = [
      row(
        'start-up (Node lines): node -e 0 (floor)',
        sideBySide(lines, (i) => ms(at(i, 'floor'))),
        '',
        true,
      ),
    ];
    rows.push(
      row(
        'start-up (Node lines): CommonJS node:http GET /v1/me (reference)',
        sideBySide(lines, (i) => ms(at(i, 'httpGet'))),
        '',
        true,
      ),
      row(
        'start-up (Node lines): CommonJS fetch GET ÷ the node:http GET',
        sideBySide(lines, (i) => ratio(at(i, 'fetchGet') / at(i, 'httpGet'))),
        '',
        true,
      ),
    );
    for (const [name, label] of [
      ['whoami', 'lk whoami'],
      ['library', 'lk library --limit 20'],
    ]) {
      const r = (i) => at(i, name) / at(i, 'httpGet');
      rows.push(
        startupRow(
          `start-up (Node lines): ${label} ÷ the node:http GET`,
          sideBySide(lines, (i) => `${ratio(r(i))} (${ms(at(i, name))})`),
          '≤ 1.8×',
          lines.every((_, i) => r(i) <= 1.8),
          judged(name),
        ),
      );
    }
    for (const [name, label] of [
      ['version', 'lk --version'],
      ['help', 'lk --help'],
      ['tab', 'lk completion --profiles (at Tab)'],
    ]) {
      const r = (i) => at(i, name) / at(i, 'floor');
      rows.push(
        startupRow(
          `start-up (Node lines): ${label} ÷ node -e 0`,
          sideBySide(lines, (i) => ratio(r(i))),
          '≤ 1.2×',
          lines.every((_, i) => r(i) <= 1.2),
          judged(name),
        ),
      );
    }
    return rows;
  } finally {
    await sandbox.close();
    work.cleanup();
  }
}

async function listing(lines, runs, entries) {
  const work = scratch();
  const sandbox = await startSandbox({ entries, rateLimit: 0 });
  try {
    const env = lkEnv(sandbox, work.dir);
    const loop = join(root, 'bench/same-output-loop.cjs');
    const measured = (bin, args) => () => run(bin, ['--require', peakRssCjs, ...args], { env });
    for (const { bin } of lines) {
      const lk = await run(bin, [lkBin, 'library', '--all', '--ndjson'], { env, digest: true });
      const same = await run(bin, [loop], { env, digest: true });
      if (lk.lines !== entries || same.sha256 !== lk.sha256) throw new Error('the same-output loop does not print what lk prints');
    }
    const candidates = lines.flatMap(({ bin }) => [measured(bin, [loop]), measured(bin, [lkBin, 'library', '--all', '--ndjson'])]);
    const results = await interleaved(candidates, runs, (result) => result);
    const msOf = (index) => median(results[index].samples.map((s) => s.ms));
    const rssOf = (index) => median(results[index].samples.map((s) => s.peakRssMb));
    const r = (i) => msOf(2 * i + 1) / msOf(2 * i);
    const count = entries.toLocaleString('en-US');
    return [
      row(
        `throughput (Node lines): same-output loop, ${count} entries (reference)`,
        sideBySide(lines, (i) => `${ms(msOf(2 * i))}, ${rssOf(2 * i).toFixed(0)} MB`),
        '',
        true,
      ),
      row(
        `throughput (Node lines): lk library --all --ndjson ÷ the loop`,
        sideBySide(lines, (i) => `${ratio(r(i))} (${ms(msOf(2 * i + 1))})`),
        '≤ 1.2×',
        lines.every((_, i) => r(i) <= 1.2),
      ),
      row(
        `memory (Node lines): peak RSS of that lk library --all --ndjson`,
        sideBySide(lines, (i) => `${rssOf(2 * i + 1).toFixed(0)} MB`),
        '< 120 MB',
        lines.every((_, i) => rssOf(2 * i + 1) < 120),
      ),
    ];
  } finally {
    await sandbox.close();
    work.cleanup();
  }
}

/** bench/report.mjs under each line (it runs lk under LK_BENCH_NODE). */
async function reports(lines) {
  const figures = [];
  const before = process.env.LK_BENCH_NODE;
  try {
    for (const { bin } of lines) {
      process.env.LK_BENCH_NODE = bin;
      const [made] = await report({ runs: 3 });
      figures.push(made);
    }
  } finally {
    if (before === undefined) delete process.env.LK_BENCH_NODE;
    else process.env.LK_BENCH_NODE = before;
  }
  return [
    row(
      'report (Node lines): lk report, 100,000-entry mirror',
      sideBySide(lines, (i) => figures[i].value.replace(/ \(.*$/, '')),
      '< 1000 ms',
      figures.every((figure) => figure.pass),
    ),
  ];
}

export async function nodeLinesBench({ runs = 11, listingRuns = 5, entries = 100_000 } = {}) {
  const lines = nodeLines();
  return [...(await startup(lines, runs)), ...(await listing(lines, listingRuns, entries)), ...(await reports(lines))];
}
