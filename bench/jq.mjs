// --jq against a pipe into the jq binary: `lk library --all --json --jq '.[].id'` beside
// `lk library --all --json | jq '.[].id'` over a large sandbox. The filter runs in jq compiled to WebAssembly
// (jq-wasm) in lk's own process, after the whole array has arrived; the pipe runs Debian's jq while lk still pages.
// No target: the pipe overlaps jq's parsing with the paging, --jq cannot (jq-wasm takes its input whole, ~70 ms per
// MB). Run alone with `node bench/jq.mjs` (after `npm run build`).
import { pathToFileURL } from 'node:url';
import { interleaved, lkBin, lkEnv, ms, ratio, row, run, scratch, startSandbox } from './lib.mjs';

export async function jq({ runs = 5, entries = 20_000 } = {}) {
  const work = scratch();
  const sandbox = await startSandbox({ entries, rateLimit: 0 });
  try {
    const env = lkEnv(sandbox, work.dir);
    const check = (result) => {
      if (result.lines !== entries) throw new Error(`printed ${result.lines} lines for ${entries} entries`);
      return result;
    };
    const withFlag = async () => check(await run(process.execPath, [lkBin, 'library', '--all', '--json', '--jq', '.[].id'], { env }));
    const script = `set -o pipefail; "${process.execPath}" "${lkBin}" library --all --json | jq '.[].id'`;
    const throughPipe = async () => check(await run('bash', ['-c', script], { env }));
    const [flag, pipe] = await interleaved([withFlag, throughPipe], runs);
    const r = flag.median / pipe.median;
    // What loading and compiling jq costs a small command: lk api /v1/me with and without --jq.
    const me = (extra) => async () => run(process.execPath, [lkBin, 'api', '/v1/me', ...extra], { env });
    const [bare, filtered] = await interleaved([me([]), me(['--jq', '.account.username'])], runs * 2);
    return [
      row('jq: lk api /v1/me', ms(bare.median), '', true),
      row(
        'jq: lk api /v1/me --jq .account.username (load + compile + run)',
        `${ms(filtered.median)} (+${ms(filtered.median - bare.median)})`,
        '',
        true,
      ),
      row(`jq: lk library --all --json | jq '.[].id' (${entries.toLocaleString('en-US')} entries)`, ms(pipe.median), '', true),
      row(`jq: lk library --all --json --jq '.[].id'`, `${ms(flag.median)} (${ratio(r)} the pipe)`, '', true),
    ];
  } finally {
    await sandbox.close();
    work.cleanup();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await jq()) console.log(`${r.figure}: ${r.value}${r.target ? `  [target ${r.target}: ${r.pass ? 'ok' : 'MISSED'}]` : ''}`);
}
