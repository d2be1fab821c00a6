// Start-up: `lk --version`, `lk --help` and `lk whoami` (against a local sandbox) beside `node -e 0`, the floor no
// Node program can beat: --version and --help within 1.2× of it. whoami and library --limit 20 beside a CommonJS
// node:http GET (bench/http-get.cjs: the least a Node client can do for that output; an ES module reference would
// start ~25 ms later and flatter lk); their target, 2.0×, is held on the Node lines with a compile cache, 22, 24 and
// 26 (bench/lines.mjs), not on Node 20, which runs this by default and compiles the program at each start. A CommonJS
// fetch GET and a bare undici GET show what the other ways to make a request cost before any of lk's own work.
import { join } from 'node:path';
import { cleanEnv, interleaved, lkBin, lkEnv, ms, ratio, root, row, run, scratch, startSandbox, startupRow } from './lib.mjs';

export async function startup({ runs = 21 } = {}) {
  const work = scratch();
  const sandbox = await startSandbox({ rateLimit: 0 });
  try {
    const env = lkEnv(sandbox, work.dir);
    const node = process.execPath;
    // Warm the file cache once, so the first measured run is not a cold read from disk.
    for (const args of [['-e', '0'], [lkBin, '--version'], [lkBin, '--help'], [lkBin, 'whoami'], [join(root, 'bench/undici-get.cjs')]])
      await run(node, args, { env });
    const [floor, version, help, profiles, whoami, library, bareGet, httpGet, fetchGet] = await interleaved(
      [
        () => run(node, ['-e', '0'], { env: cleanEnv() }),
        () => run(node, [lkBin, '--version'], { env }),
        () => run(node, [lkBin, '--help'], { env }),
        () => run(node, [lkBin, 'completion', '--profiles'], { env }),
        () => run(node, [lkBin, 'whoami'], { env }),
        () => run(node, [lkBin, 'library', '--limit', '20'], { env }),
        () => run(node, [join(root, 'bench/undici-get.cjs')], { env }),
        () => run(node, [join(root, 'bench/http-get.cjs')], { env }),
        () => run(node, [join(root, 'bench/fetch-get.cjs')], { env }),
      ],
      runs,
    );
    const r = (x) => x.median / floor.median;
    const judged = (x) => ({ floorMs: floor.median, plain: ms(x.median) });
    return [
      row('start-up: node -e 0 (floor)', ms(floor.median), '', true),
      startupRow('start-up: lk --version', `${ms(version.median)} (${ratio(r(version))})`, '≤ 1.2× floor', r(version) <= 1.2, judged(version)),
      startupRow('start-up: lk --help', `${ms(help.median)} (${ratio(r(help))})`, '≤ 1.2× floor', r(help) <= 1.2, judged(help)),
      row('start-up: lk completion --profiles (at Tab)', `${ms(profiles.median)} (${ratio(r(profiles))})`, '', true),
      row('start-up: a CommonJS node:http GET /v1/me (reference)', `${ms(httpGet.median)} (${ratio(r(httpGet))})`, '', true),
      row('start-up: a CommonJS fetch GET /v1/me', `${ms(fetchGet.median)} (${ratio(fetchGet.median / httpGet.median)} the node:http GET)`, '', true),
      row('start-up: a bare undici GET /v1/me (for scale)', `${ms(bareGet.median)} (${ratio(r(bareGet))})`, '', true),
      row(
        'start-up: lk whoami (local sandbox)',
        `${ms(whoami.median)} (${ratio(r(whoami))}; ${ratio(whoami.median / httpGet.median)} the node:http GET)`,
        '',
        true,
      ),
      row(
        'start-up: lk library --limit 20 (local sandbox)',
        `${ms(library.median)} (${ratio(r(library))}; ${ratio(library.median / httpGet.median)} the node:http GET)`,
        '',
        true,
      ),
    ];
  } finally {
    await sandbox.close();
    work.cleanup();
  }
}
