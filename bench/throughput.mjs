// Throughput: `lk library --all --ndjson` over 100,000 entries with the rate limit lifted, beside a minimal undici loop
// over the same pages with 4 in flight (bench/raw-pages.mjs): once printing the same ndjson as lk (the same bytes,
// checked), once printing the bodies untouched. All write into the same kind of pipe, read and discarded here.
// Target: lk within 1.5× of the loop that prints what lk prints.
import { join } from 'node:path';
import { interleaved, lkBin, lkEnv, ms, ratio, root, row, run, scratch, startSandbox } from './lib.mjs';

export const ENTRIES = 100_000;

export async function throughput({ runs = 5, entries = ENTRIES } = {}) {
  const work = scratch();
  const sandbox = await startSandbox({ entries, rateLimit: 0 });
  try {
    const env = lkEnv(sandbox, work.dir);
    const node = process.execPath;
    const rawPages = join(root, 'bench/raw-pages.mjs');
    const check = await run(node, [lkBin, 'library', '--all', '--ndjson'], { env, digest: true });
    if (check.lines !== entries) throw new Error(`lk printed ${check.lines} lines for ${entries} entries`);
    const same = await run(node, [rawPages, '--ndjson'], { env, digest: true });
    if (same.sha256 !== check.sha256) throw new Error('the raw --ndjson loop does not print what lk prints');
    const [bodies, raw, lk] = await interleaved(
      [
        () => run(node, [rawPages], { env }),
        () => run(node, [rawPages, '--ndjson'], { env }),
        () => run(node, [lkBin, 'library', '--all', '--ndjson'], { env }),
      ],
      runs,
    );
    const r = lk.median / raw.median;
    const perSecond = (entries / lk.median) * 1000;
    const count = entries.toLocaleString('en-US');
    return [
      row(`throughput: raw undici loop (4 in flight), bodies untouched, ${count} entries`, ms(bodies.median), '', true),
      row(`throughput: raw undici loop (4 in flight), the same ndjson as lk`, ms(raw.median), '', true),
      row(
        `throughput: lk library --all --ndjson`,
        `${ms(lk.median)} (${ratio(r)}; ${ratio(lk.median / bodies.median)} the bodies loop; ${Math.round(perSecond).toLocaleString('en-US')} entries/s)`,
        '≤ 1.5× raw ndjson',
        r <= 1.5,
      ),
    ];
  } finally {
    await sandbox.close();
    work.cleanup();
  }
}
