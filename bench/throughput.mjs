// Throughput: `lk library --all --ndjson` over 100,000 entries with the rate limit lifted, beside a plain undici loop
// fetching the same pages (bench/raw-pages.mjs). Both write into the same kind of pipe, read and discarded here.
// Target: lk within 1.3× of the raw loop.
import { join } from 'node:path';
import { interleaved, lkBin, lkEnv, ms, ratio, root, row, run, scratch, startSandbox } from './lib.mjs';

export const ENTRIES = 100_000;

export async function throughput({ runs = 5, entries = ENTRIES } = {}) {
  const work = scratch();
  const sandbox = await startSandbox({ entries, rateLimit: 0 });
  try {
    const env = lkEnv(sandbox, work.dir);
    const node = process.execPath;
    const check = await run(node, [lkBin, 'library', '--all', '--ndjson'], { env });
    if (check.lines !== entries) throw new Error(`lk printed ${check.lines} lines for ${entries} entries`);
    const [raw, lk] = await interleaved(
      [() => run(node, [join(root, 'bench/raw-pages.mjs')], { env }), () => run(node, [lkBin, 'library', '--all', '--ndjson'], { env })],
      runs,
    );
    const r = lk.median / raw.median;
    const perSecond = (entries / lk.median) * 1000;
    return [
      row(`throughput: raw undici page loop, ${entries.toLocaleString('en-US')} entries`, ms(raw.median), '', true),
      row(
        `throughput: lk library --all --ndjson`,
        `${ms(lk.median)} (${ratio(r)}, ${Math.round(perSecond).toLocaleString('en-US')} entries/s)`,
        '≤ 1.3× raw',
        r <= 1.3,
      ),
    ];
  } finally {
    await sandbox.close();
    work.cleanup();
  }
}
