// Concurrent paging: `lk library --all --ndjson` over 50 pages of 100 with 100 ms of latency added to every
// request, with the default concurrency beside LK_PAGING_CONCURRENCY=1 (the hidden switch that pages one at a
// time). Target: concurrent ≤ 0.4 × one at a time.
import { interleaved, lkBin, lkEnv, ms, ratio, row, run, scratch, startSandbox } from './lib.mjs';

export async function paging({ runs = 5, entries = 5_000 } = {}) {
  const work = scratch();
  const sandbox = await startSandbox({ entries, rateLimit: 0, faults: { latencyMs: 100 } });
  try {
    const env = lkEnv(sandbox, work.dir);
    const once = (extra) => async () => {
      const result = await run(process.execPath, [lkBin, 'library', '--all', '--ndjson'], { env: { ...env, ...extra } });
      if (result.lines !== entries) throw new Error(`lk printed ${result.lines} lines for ${entries} entries`);
      return result;
    };
    const [concurrent, sequential] = await interleaved([once({}), once({ LK_PAGING_CONCURRENCY: '1' })], runs);
    const r = concurrent.median / sequential.median;
    return [
      row('paging: 50 pages, 100 ms latency, one at a time', ms(sequential.median), '', true),
      row('paging: 50 pages, 100 ms latency, concurrent (default)', `${ms(concurrent.median)} (${ratio(r)})`, '≤ 0.40× one at a time', r <= 0.4),
    ];
  } finally {
    await sandbox.close();
    work.cleanup();
  }
}
