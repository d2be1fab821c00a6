import { execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputOf, startTestBed, type TestBed } from './harness.js';
import { tempDir } from '../support/temp-dir.js';
import { describeWith } from '../support/outside-tools.js';
import { makeProgram } from '../../src/cli.js';
import { itWithSqlite, itWithoutSqlite } from '../support/sqlite-node.js';

/**
 * The npm package as a user gets it (issue 40): `npm pack`, then `npm install -g` of that tarball into a private
 * prefix, and the installed copy run. Its size counts every file npm put there: dist/, and the runtime dependencies,
 * which are only what dist/ cannot carry (the keyring's prebuilt addon, jq-wasm). Those come from npm's cache (the
 * registry for what it lacks), the package itself from the tarball alone.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
// npm turns on Node's compile cache, by default in the temp folder, which every test must leave empty.
const npmEnv = { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' };

function bytesUnder(dir: string): number {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

let bed: TestBed;
let prefix: string;
let installLog: string;

beforeAll(async () => {
  bed = await startTestBed({ entries: 40, rateLimit: 0, exportIntervalSeconds: 0 });
  const work = tempDir('lk-package-');
  // --ignore-scripts: the tarball of the dist/ this run tests (prepack would rebuild it under the other test files).
  const packed = await promisify(execFile)(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT, env: npmEnv });
  const tarball = join(work, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
  prefix = join(work, 'prefix');
  const install = await promisify(execFile)(npm, ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball], {
    cwd: work,
    env: npmEnv,
  });
  installLog = install.stdout + install.stderr;
}, 180_000);

afterAll(() => bed.sandbox.close());

function installed(args: string[], env: Record<string, string | undefined> = {}) {
  const bin = join(prefix, 'lib/node_modules/lk/bin/lk.cjs');
  const childEnv = { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, LANG: 'C.UTF-8', TZ: 'UTC', ...bed.env(), ...env };
  return outputOf(spawn(process.execPath, [bin, ...args], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] }));
}

describe('npm install -g of the packed tarball', () => {
  it('installs under 15 MB, with no warning and no script run', () => {
    expect(installLog).not.toMatch(/warn/i);
    expect(bytesUnder(join(prefix, 'lib/node_modules')) / 1e6).toBeLessThan(15);
    // Nothing bundled in dist/ is installed a second time beside it.
    const packages = readdirSync(join(prefix, 'lib/node_modules/lk/node_modules'));
    expect(packages.sort()).toEqual(['@napi-rs', 'jq-wasm']);
  });

  it('lk --version and lk whoami --json work from the installed copy', async () => {
    const version = await installed(['--version']);
    expect(version).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
    const whoami = await installed(['whoami', '--json']);
    expect(whoami.code, whoami.stderr).toBe(0);
    expect((JSON.parse(whoami.stdout) as { account: { username: string } }).account.username).toBe('demo');
  });

  it('a usage error in colour (FORCE_COLOR) is one red line and exit 2: nothing it paints with is missing', async () => {
    const result = await installed(['no-such-command'], { FORCE_COLOR: '1' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^\x1b\[31mlk: unknown command 'no-such-command'\x1b\[39m$/m);
  });

  itWithSqlite('lk sync builds the mirror from the installed copy, and lk sql reads it', async () => {
    const db = join(tempDir('lk-package-db-'), 'lk.db');
    const sync = await installed(['sync', '--db', db]);
    expect(sync.code, sync.stderr).toBe(0);
    const count = await installed(['sql', 'SELECT count(*) AS n FROM entries', '--db', db, '--json']);
    expect(count.code, count.stderr).toBe(0);
    expect(JSON.parse(count.stdout)).toEqual([{ n: 40 }]);
  });
  itWithoutSqlite(`lk sync refuses with one line on Node ${process.versions.node} (no node:sqlite) from the installed copy`, async () => {
    const sync = await installed(['sync', '--db', join(tempDir('lk-package-db-'), 'lk.db')]);
    expect(sync.code).toBe(1);
    expect(sync.stderr).toMatch(/22\.13/);
  });
});

describeWith(['man'], 'the man pages npm install -g puts in PREFIX/share/man', () => {
  const man = (page: string) =>
    outputOf(
      spawn('man', ['-M', join(prefix, 'share/man'), page], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8', MANWIDTH: '80', MANPAGER: 'cat', PAGER: 'cat' },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );

  it('man lk-library reads as a man page at 80 columns, with its options', async () => {
    const result = await man('lk-library');
    expect(result.code, result.stderr).toBe(0);
    const text = result.stdout;
    expect(text).toMatch(/^LK-LIBRARY\(1\) +lk manual +LK-LIBRARY\(1\)$/m);
    for (const heading of ['NAME', 'SYNOPSIS', 'DESCRIPTION', 'OPTIONS', 'COMMANDS', 'EXAMPLES', 'SEE ALSO'])
      expect(text).toMatch(new RegExp(`^${heading}$`, 'm'));
    expect(text).toMatch(/^ {7}lk-library - your library/m);
    // The options as --help words them, typed as they are (hyphens, not U+2010).
    for (const option of ['--phase <phase>', '--domain <domain>', '--all', '--limit <n>'])
      expect(text).toMatch(new RegExp(`^ {7}${option}( |$)`, 'm'));
    expect(text).toContain('lk-library-list(1)');
    for (const line of text.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it('man lk lists every command, and has the help topics as sections', async () => {
    const result = await man('lk');
    expect(result.code, result.stderr).toBe(0);
    for (const name of (await makeProgram()).commands.map((command) => command.name()).filter((name) => name !== 'help')) {
      expect(result.stdout).toMatch(new RegExp(`^ {7}lk ${name}( |$)`, 'm'));
    }
    expect(result.stdout).toMatch(/^ {7}lk alias set$/m);
    for (const section of ['FORMATS', 'ENVIRONMENT', 'EXIT STATUS', 'DATES', 'THE MIRROR'])
      expect(result.stdout).toMatch(new RegExp(`^${section}$`, 'm'));
  });
});
