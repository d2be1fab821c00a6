// lk diff of two 100,000-entry exports (issue 39: under 3 s and under 400 MB): two exports of the sandbox with a few
// mutations between them (entries added, removed, rated, re-noted, an event), compared as plain files and as gzip
// files; wall time and the process's own peak RSS, medians of interleaved runs.
//
//   node bench/diff.mjs            # alone (npm run build first)
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { interleaved, lkBin, lkEnv, ms, row, run, scratch, startSandbox } from './lib.mjs';

export async function diff({ runs = 5, entries = 100_000 } = {}) {
  const work = scratch();
  const sandbox = await startSandbox({ entries, rateLimit: 0, exportIntervalSeconds: 0 });
  try {
    const exportTo = (name) =>
      run(process.execPath, [lkBin, 'export', '-q', '-o', join(work.dir, name)], { env: lkEnv(sandbox, join(work.dir, name.replace('.', '-'))) });
    await exportTo('old.json');
    const ids = sandbox.entryIds('demo');
    sandbox.removeEntry('demo', ids[10]);
    sandbox.rateEntry('demo', ids[20], 1);
    sandbox.noteEntry('demo', ids[30], 'Changed my mind about this one.');
    sandbox.addEvent('demo', ids[40]);
    sandbox.addEntries('demo', 3);
    await exportTo('new.json');
    for (const name of ['old.json', 'new.json']) writeFileSync(join(work.dir, `${name}.gz`), gzipSync(readFileSync(join(work.dir, name))));
    const [oldJson, newJson, oldGz, newGz] = ['old.json', 'new.json', 'old.json.gz', 'new.json.gz'].map((name) => join(work.dir, name));

    // The figures count only if the diff is the right one.
    const diff = JSON.parse(
      execFileSync(process.execPath, [lkBin, 'diff', oldJson, newJson, '--json'], { encoding: 'utf8', env: lkEnv(sandbox, work.dir) }),
    );
    const counts = [diff.added.length, diff.removed.length, diff.changed.length, diff.history.added.length];
    if (counts.join() !== '3,1,3,1') throw new Error(`unexpected diff: ${counts.join()} (entries added, removed, changed, events added)`);

    const env = lkEnv(sandbox, work.dir);
    const plain = () => run(process.execPath, [lkBin, 'diff', oldJson, newJson], { env, peakRss: true });
    const gz = () => run(process.execPath, [lkBin, 'diff', oldGz, newGz], { env, peakRss: true });
    const [p, g] = await interleaved([plain, gz], runs, (result) => result);
    const med = (samples, key) => samples.map((s) => s[key]).sort((a, b) => a - b)[Math.floor(samples.length / 2)];
    const n = entries.toLocaleString('en-US');
    const mb = (value) => `${value.toFixed(0)} MB`;
    const rows = [];
    for (const [label, samples] of [
      ['plain', p.samples],
      ['.json.gz', g.samples],
    ]) {
      const time = med(samples, 'ms');
      const rss = Math.max(...samples.map((s) => s.peakRssMb));
      rows.push(row(`diff: lk diff of two ${n}-entry exports (${label}, ${process.version})`, ms(time), '< 3000 ms', time < 3000));
      rows.push(row(`diff: peak RSS of that (${label})`, mb(rss), '< 400 MB', rss < 400));
    }
    return rows;
  } finally {
    await sandbox.close();
    work.cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await diff();
  for (const r of rows) process.stdout.write(`${r.figure} | ${r.value} | ${r.target} | ${r.target ? (r.pass ? 'ok' : 'MISSED') : ''}\n`);
}
