// Requests: a full listing costs exactly ceil(total / 100) requests, and a second export within the hour costs
// none (the sandbox counts what it receives).
import { join } from 'node:path';
import { lkBin, lkEnv, row, run, scratch, startSandbox } from './lib.mjs';

export async function requests({ entries = 3_456 } = {}) {
  const work = scratch();
  const sandbox = await startSandbox({ entries });
  try {
    const env = lkEnv(sandbox, work.dir);
    sandbox.resetCounters();
    await run(process.execPath, [lkBin, 'library', '--all', '--ndjson'], { env });
    const listing = sandbox.counters.byPath['/v1/library'] ?? 0;
    const expected = Math.ceil(entries / 100);

    await run(process.execPath, [lkBin, 'export', '-q', '-o', join(work.dir, 'first.json')], { env });
    sandbox.resetCounters();
    await run(process.execPath, [lkBin, 'export', '-q', '-o', join(work.dir, 'second.json')], { env });
    const repeat = sandbox.counters.requests;
    return [
      row(`requests: lk library --all over ${entries.toLocaleString('en-US')} entries`, String(listing), `= ${expected}`, listing === expected),
      row('requests: a second lk export within the hour', String(repeat), '= 0', repeat === 0),
    ];
  } finally {
    await sandbox.close();
    work.cleanup();
  }
}
