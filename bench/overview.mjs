// `lk next --offline` and `lk status --offline` over a 100,000-entry mirror, beside the least a Node process costs
// (`node -e 0` under the same Node, NODE_EXTRA_CA_CERTS unset on both sides by lkEnv); target ≤ 3× (issue 37). Also
// the requests of `lk next` and `lk status` online for 1,234 entries. Runs lk under the Node with node:sqlite that
// bench/mirror.mjs finds.
//
//   node bench/overview.mjs            # alone (npm run build first)
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { interleaved, lkBin, lkEnv, ms, ratio, row, run, scratch, startSandbox } from './lib.mjs';
import { sqliteNode } from './mirror.mjs';

export async function overview({ runs = 9 } = {}) {
  const node = sqliteNode();
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  const rows = [];
  const work = scratch();
  try {
    const big = await startSandbox({ entries: 100_000, rateLimit: 0, exportIntervalSeconds: 0 });
    const env = lkEnv(big, work.dir, { LK_DATA_DIR: join(work.dir, 'data') });
    try {
      await run(node, [lkBin, 'sync', '-q'], { env });
    } finally {
      await big.close();
    }
    const floor = () => run(node, ['-e', '0'], { env });
    const next = () => run(node, [lkBin, 'next', '--offline', '-q'], { env });
    const status = () => run(node, [lkBin, 'status', '--offline', '-q'], { env });
    const [f, n, s] = await interleaved([floor, next, status], runs);
    rows.push(row(`overview: node -e 0 (floor, ${version})`, ms(f.median), '', true));
    for (const [name, timed] of [
      ['lk next --offline', n],
      ['lk status --offline', s],
    ]) {
      rows.push(
        row(
          `overview: ${name}, 100,000 entries`,
          `${ms(timed.median)} (${ratio(timed.median / f.median)})`,
          '≤ 2.5× floor',
          timed.median / f.median <= 2.5,
        ),
      );
    }
  } finally {
    work.cleanup();
  }

  // Requests online for the sandbox's 1,234 entries: lk next reads the history pages it needs (at most every page),
  // the entries in progress and the calendar once; lk status one page per listing count, the calendar and notifications.
  const small = await startSandbox({ entries: 1234, rateLimit: 0 });
  const again = scratch();
  try {
    const env = lkEnv(small, again.dir);
    for (const command of ['next', 'status']) {
      small.resetCounters();
      await run(node, [lkBin, command, '-q'], { env });
      const paths = Object.entries(small.counters.byPath).map(([path, count]) => `${path.replace('/v1/', '')} ${count}`);
      rows.push(row(`overview: requests of lk ${command}, 1,234 entries`, `${small.counters.requests} (${paths.join(', ')})`, '', true));
    }
  } finally {
    await small.close();
    again.cleanup();
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await overview()) process.stdout.write(`${r.figure} | ${r.value} | ${r.target} | ${r.target ? (r.pass ? 'ok' : 'MISSED') : ''}\n`);
}
