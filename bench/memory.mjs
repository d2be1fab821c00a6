// Memory: the peak RSS of `lk library --all --ndjson` and `--csv` over 10,000 and over 100,000 entries (the process's
// own resourceUsage().maxRSS). Targets: under 150 MB at 100,000, and not growing with the library (≤ 1.25× the
// 10,000 figure: what is left is Node itself and a few pages at a time).
import { lkBin, lkEnv, median, row, run, scratch, startSandbox } from './lib.mjs';

async function peakRss(entries, runs, format) {
  const work = scratch();
  const sandbox = await startSandbox({ entries, rateLimit: 0 });
  try {
    const env = lkEnv(sandbox, work.dir);
    const samples = [];
    for (let i = 0; i < runs; i++) {
      const result = await run(process.execPath, [lkBin, 'library', '--all', `--${format}`], { env, peakRss: true });
      if (result.lines < entries) throw new Error(`lk printed ${result.lines} ${format} lines for ${entries} entries`);
      samples.push(result.peakRssMb);
    }
    return median(samples);
  } finally {
    await sandbox.close();
    work.cleanup();
  }
}

export async function memory({ runs = 3 } = {}) {
  const rows = [];
  for (const format of ['ndjson', 'csv']) {
    const small = await peakRss(10_000, runs, format);
    const large = await peakRss(100_000, runs, format);
    const growth = large / small;
    rows.push(
      row(`memory: peak RSS, lk library --all --${format}, 10,000 entries`, `${small.toFixed(0)} MB`, '', true),
      row(`memory: peak RSS, lk library --all --${format}, 100,000 entries`, `${large.toFixed(0)} MB`, '< 150 MB', large < 150),
      row(`memory: growth from 10,000 to 100,000 entries (--${format})`, `${growth.toFixed(2)}×`, '≤ 1.25×', growth <= 1.25),
    );
  }
  return rows;
}
