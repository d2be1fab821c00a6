// Throughput: `lk library --all --ndjson` over 100,000 entries with the rate limit lifted, beside the same-output loop
// (bench/same-output-loop.cjs: CommonJS, node:http, 4 pages in flight, each item written as one line — the least a
// Node program can do for the same bytes, checked) and, for scale, a loop that prints the bodies untouched
// (bench/raw-pages.mjs). All write into the same kind of pipe, read and discarded here.
// Target: lk within 1.2× of the same-output loop (issue 47; 1.3× before).
import { join } from 'node:path';
import { interleaved, lkBin, lkEnv, ms, ratio, root, row, run, scratch, startSandbox } from './lib.mjs';

export const ENTRIES = 100_000;

export async function throughput({ runs = 5, entries = ENTRIES } = {}) {
  const work = scratch();
  const sandbox = await startSandbox({ entries, rateLimit: 0 });
  try {
    const env = lkEnv(sandbox, work.dir);
    const node = process.execPath;
    const loop = join(root, 'bench/same-output-loop.cjs');
    const rawPages = join(root, 'bench/raw-pages.mjs');
    const check = await run(node, [lkBin, 'library', '--all', '--ndjson'], { env, digest: true });
    if (check.lines !== entries) throw new Error(`lk printed ${check.lines} lines for ${entries} entries`);
    const same = await run(node, [loop], { env, digest: true });
    if (same.sha256 !== check.sha256) throw new Error('the same-output loop does not print what lk prints');
    const [bodies, reference, lk] = await interleaved(
      [() => run(node, [rawPages], { env }), () => run(node, [loop], { env }), () => run(node, [lkBin, 'library', '--all', '--ndjson'], { env })],
      runs,
    );
    const r = lk.median / reference.median;
    const perSecond = (entries / lk.median) * 1000;
    const count = entries.toLocaleString('en-US');
    return [
      row(`throughput: undici loop (4 in flight), bodies untouched, ${count} entries`, ms(bodies.median), '', true),
      row(`throughput: same-output loop (CommonJS, node:http, 4 in flight, one line an item)`, ms(reference.median), '', true),
      row(
        `throughput: lk library --all --ndjson`,
        `${ms(lk.median)} (${ratio(r)}; ${Math.round(perSecond).toLocaleString('en-US')} entries/s)`,
        '≤ 1.2× the same-output loop',
        r <= 1.2,
      ),
    ];
  } finally {
    await sandbox.close();
    work.cleanup();
  }
}
