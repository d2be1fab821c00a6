// Memory: the peak RSS of `lk library --all` over 100,000 entries in every format (the process's own
// resourceUsage().maxRSS), beside that of the same-output loop (bench/same-output-loop.cjs). Target: under 120 MB (issue 47) in
// every format: pages are read as stdout takes them, and no page is held once written.
import { join } from 'node:path';
import { lkBin, lkEnv, median, root, row, run, scratch, startSandbox } from './lib.mjs';

const FORMATS = [['--ndjson'], ['--json'], ['--csv'], ['--tsv'], ['--format', 'table']];

export async function memory({ runs = 3, entries = 100_000 } = {}) {
  const work = scratch();
  const sandbox = await startSandbox({ entries, rateLimit: 0 });
  const count = entries.toLocaleString('en-US');
  try {
    const env = lkEnv(sandbox, work.dir);
    const peak = async (args) => {
      const samples = [];
      for (let i = 0; i < runs; i++) {
        const result = await run(process.execPath, args, { env, peakRss: true });
        if (result.lines < entries) throw new Error(`${args.join(' ')} printed ${result.lines} lines for ${entries} entries`);
        samples.push(result.peakRssMb);
      }
      return median(samples);
    };
    const rows = [
      row(
        `memory: peak RSS, same-output loop, ${count} entries`,
        `${(await peak([join(root, 'bench/same-output-loop.cjs')])).toFixed(0)} MB`,
        '',
        true,
      ),
    ];
    for (const format of FORMATS) {
      const mb = await peak([lkBin, 'library', '--all', ...format]);
      rows.push(row(`memory: peak RSS, lk library --all ${format.join(' ')}, ${count} entries`, `${mb.toFixed(0)} MB`, '< 120 MB', mb < 120));
    }
    return rows;
  } finally {
    await sandbox.close();
    work.cleanup();
  }
}
