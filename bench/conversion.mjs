// Conversion: a 100,000-entry export (already cached by a first `lk export`) into CSV files with
// `lk export --format csv --output-dir`, beside jq turning the same JSON file into CSV with the same flattening
// (nested objects as dot-path columns, arrays as JSON cells). jq gets the easier job: one pass, one output stream,
// no files to write atomically. Target: lk faster than jq.
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { interleaved, lkBin, lkEnv, ms, ratio, row, run, scratch, startSandbox } from './lib.mjs';

// Every top-level array of objects, as lk does (src/output/export-csv.ts): a header of the union of leaf paths, then
// one row per item.
const JQ_PROGRAM = `
def leaves($p): if type == "object" and length > 0 then (to_entries[] as $e | $e.value | leaves($p + [$e.key])) else $p end;
to_entries[]
| select(.value | type == "array" and all(.[]; type == "object"))
| .value as $items
| (reduce ($items[] | leaves([]) | join("\\u0000")) as $k ({}; .[$k] = true) | keys_unsorted | map(split("\\u0000"))) as $cols
| ($cols | map(join(".")) | @csv),
  ($items[] as $row | $cols | map(. as $p | $row | getpath($p) | if type == "array" or type == "object" then tojson else . end) | @csv)
`;

function hasJq() {
  try {
    execFileSync('jq', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export async function conversion({ runs = 3, entries = 100_000 } = {}) {
  if (!hasJq()) return [row('conversion: export to CSV, lk vs jq', 'jq not installed (apt-get install jq)', 'lk < jq', false)];
  const work = scratch();
  const sandbox = await startSandbox({ entries, rateLimit: 0 });
  try {
    const env = lkEnv(sandbox, work.dir);
    const file = join(work.dir, 'export.json');
    await run(process.execPath, [lkBin, 'export', '-q', '-o', file], { env });
    const out = join(work.dir, 'csv');
    const lkCsv = async () => {
      rmSync(out, { recursive: true, force: true });
      const result = await run(process.execPath, [lkBin, 'export', '-q', '--format', 'csv', '--output-dir', out], { env });
      if (readdirSync(out).length === 0) throw new Error('lk export --format csv wrote nothing');
      return result;
    };
    const exportsBefore = sandbox.counters.exports;
    const [jq, lk] = await interleaved([() => run('jq', ['-r', JQ_PROGRAM, file], { env }), lkCsv], runs);
    if (sandbox.counters.exports !== exportsBefore) throw new Error('lk fetched a new export instead of using its cache');
    const r = lk.median / jq.median;
    return [
      row(`conversion: jq @csv on a ${entries.toLocaleString('en-US')}-entry export`, ms(jq.median), '', true),
      row('conversion: lk export --format csv (cached export)', `${ms(lk.median)} (${ratio(r)})`, '< 1.00× jq', r < 1),
    ];
  } finally {
    await sandbox.close();
    work.cleanup();
  }
}
