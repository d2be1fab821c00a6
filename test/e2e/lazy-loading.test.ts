import { readFileSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLk, startTestBed, type TestBed } from './harness.js';
import { whatRunLoads } from './loaded.js';
import { COMMANDS } from '../../src/commands/index.js';

const FAKE_TTY = fileURLToPath(new URL('../fixtures/fake-tty.mjs', import.meta.url));
const HEAVY = ['commander', 'undici', 'ora', 'csv-stringify', 'string-width', 'conf', 'picocolors', 'jq-wasm', '@napi-rs/keyring'];

let bed: TestBed;

beforeAll(async () => {
  bed = await startTestBed({ entries: 30, rateLimit: 0 });
});

afterAll(async () => {
  await bed.sandbox.close();
});

describe('start-up loads only what the command uses', () => {
  it("the record itself works: lk whoami runs commander and lk's client over node:http, and undici not at all", async () => {
    const { run, modules, packages, distFiles, builtins } = await whatRunLoads(bed, ['whoami', '--json']);
    expect(run.code).toBe(0);
    expect(packages).toContain('commander');
    expect(modules).toContain('src/api/client.ts');
    expect(modules).toContain('src/api/http/node-transport.ts');
    expect(builtins).toContain('http');
    expect(packages).not.toContain('undici');
    expect(modules).not.toContain('src/api/http/undici-transport.ts');
    expect(distFiles).toContain('cli.cjs');
  });

  it('undici, from its public entry, carries the request with LK_TRANSPORT=undici and through a proxy', async () => {
    const forced = await whatRunLoads(bed, ['whoami', '--json'], { env: { LK_TRANSPORT: 'undici' } });
    expect(forced.run.code).toBe(0);
    expect(forced.modules).toContain('node_modules/undici/index.js');
    expect(forced.modules).not.toContain('src/api/http/node-transport.ts');
    // NO_PROXY lets the request reach the sandbox directly; the proxy variable alone puts undici's agent in charge.
    const proxied = await whatRunLoads(bed, ['whoami', '--json'], { env: { HTTP_PROXY: 'http://127.0.0.1:9', NO_PROXY: '127.0.0.1' } });
    expect(proxied.run.code).toBe(0);
    expect(proxied.modules).toContain('node_modules/undici/index.js');
  });

  it('lk whoami runs no table, spinner, csv, width, jq or config-writing library, and reads no file of theirs', async () => {
    const { modules, packages, distFiles } = await whatRunLoads(bed, ['whoami', '--json']);
    for (const name of ['ora', 'csv-stringify', 'conf', 'string-width', 'jq-wasm', '@napi-rs/keyring']) expect(packages).not.toContain(name);
    for (const name of ['src/output/terminal/width.ts', 'src/output/formats/table.ts', 'src/mirror/sync.ts']) expect(modules).not.toContain(name);
    // paths.cjs finds the compile cache's folder, on a Node that has one (22.1 and later).
    expect([...distFiles].sort()).toEqual('enableCompileCache' in module ? ['cli.cjs', 'paths.cjs'] : ['cli.cjs']);
  });

  it.each([
    [['whoami', '--json'], 'whoami'],
    [['--profile', 'sync', 'library', '--limit', '0'], 'library'],
    [['help', 'history'], 'history'],
  ])('lk %j runs the module of its own command and no other command module (src/commands/index.ts)', async (args, own) => {
    const { modules } = await whatRunLoads(bed, args);
    const commandModules = COMMANDS.map(({ name }) => `src/commands/${name}.ts`);
    expect(commandModules.filter((module) => modules.has(module))).toEqual([`src/commands/${own}.ts`]);
  });

  it('lk help runs every command module: it lists them all', async () => {
    const { run, modules } = await whatRunLoads(bed, ['help']);
    expect(run.code).toBe(0);
    for (const { name } of COMMANDS) expect(modules).toContain(`src/commands/${name}.ts`);
  });

  // commander requires child_process at load: a built-in module, which Node loads from its own snapshot and code cache.
  it("lk whoami loads neither Node's ES module translators nor SQLite", async () => {
    const { run, builtins } = await whatRunLoads(bed, ['whoami', '--json']);
    expect(run.code).toBe(0);
    expect(builtins).toContain('net');
    for (const name of ['internal/modules/esm/translators', 'sqlite']) expect(builtins).not.toContain(name);
  });

  it('the program bundles undici whole, from its public entry: no file of it is named or left in node_modules', () => {
    // esbuild names every module it wraps after its path: dist/cli.cjs says what it holds.
    const bundle = readFileSync(fileURLToPath(new URL('../../dist/cli.cjs', import.meta.url)), 'utf8');
    const bundled = new Set([...bundle.matchAll(/"node_modules\/(undici\/[^"]+)"\(/g)].map((match) => match[1]!));
    expect(bundled).toContain('undici/index.js');
    expect(bundle).not.toMatch(/require\("undici[/"]/);
  });

  it('the program holds no import(): the packages it leaves in node_modules are CommonJS, required when used', () => {
    const bundle = readFileSync(fileURLToPath(new URL('../../dist/cli.cjs', import.meta.url)), 'utf8');
    const code = bundle.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    expect(code).not.toMatch(/(?<![\w$.])import\(/);
  });

  it('the program is ASCII, one byte a character in V8', () => {
    const bundle = readFileSync(fileURLToPath(new URL('../../dist/cli.cjs', import.meta.url)), 'utf8');
    expect(bundle).not.toMatch(/[^\x00-\x7f]/);
  });

  it.each([['--version'], ['-V'], ['--help'], ['-h'], ['completion', '--profiles']])(
    'lk %s loads neither the program nor a package',
    async (...args) => {
      const { run, packages, distFiles } = await whatRunLoads(bed, args);
      expect(run.code).toBe(0);
      if (args[0] !== 'completion') expect(run.stdout.length).toBeGreaterThan(0);
      expect([...packages]).toEqual([]);
      expect(distFiles).not.toContain('cli.cjs');
    },
  );

  it('lk library --csv runs csv-stringify, not the table format or ora', async () => {
    const { run, packages, modules } = await whatRunLoads(bed, ['library', '--csv', '--limit', '3']);
    expect(run.code).toBe(0);
    expect(packages).toContain('csv-stringify');
    expect(modules).not.toContain('src/output/formats/table.ts');
    expect(packages).not.toContain('ora');
  });

  it("lk library on a terminal runs lk's table format, measured by string-width, but no spinner for a single page", async () => {
    const { run, packages, modules, distFiles } = await whatRunLoads(bed, ['library'], { nodeArgs: ['--import', FAKE_TTY] });
    expect(run.code).toBe(0);
    expect(modules).toContain('src/output/formats/aligned-lines.ts');
    expect(packages).toContain('string-width');
    expect(packages).not.toContain('ora');
    expect(distFiles).not.toContain('ora.cjs');
  });

  it('lk library --all on a terminal reads the spinner from its own file once the listing takes a moment', async () => {
    bed.sandbox.faults = { paths: ['/v1/library'], latencyMs: 300 };
    const { run, packages, distFiles } = await whatRunLoads(bed, ['library', '--all', '--limit', '5'], { nodeArgs: ['--import', FAKE_TTY] }).finally(
      () => (bed.sandbox.faults = {}),
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(' / 30 entries');
    expect(run.stderr).toContain(' / 30 entries');
    expect(distFiles).toContain('ora.cjs');
    expect(packages).toContain('ora');
  });

  it('writing the config reads conf from its own file; reading it does not', async () => {
    const written = await whatRunLoads(bed, ['config', 'set', 'timeout', '45']);
    expect(written.run.code).toBe(0);
    expect(written.distFiles).toContain('conf.cjs');
    expect(written.packages).toContain('conf');
    const read = await whatRunLoads(bed, ['config', 'get', 'timeout']);
    expect(read.run.stdout).toBe('45\n');
    expect(read.distFiles).not.toContain('conf.cjs');
  });

  it("the program holds neither the MCP SDK nor zod: lk mcp's server is dist/mcp.cjs, which lk mcp --help does not read", async () => {
    const bundle = readFileSync(fileURLToPath(new URL('../../dist/cli.cjs', import.meta.url)), 'utf8');
    expect(bundle).not.toMatch(/node_modules\/(@modelcontextprotocol|zod)\//);
    expect(readFileSync(fileURLToPath(new URL('../../dist/mcp.cjs', import.meta.url)), 'utf8')).toMatch(
      /node_modules\/@modelcontextprotocol\/server\//,
    );
    const { run, packages, distFiles } = await whatRunLoads(bed, ['mcp', '--help']);
    expect(run.stdout).toContain('"mcpServers"');
    expect(distFiles).not.toContain('mcp.cjs');
    expect(packages).not.toContain('@modelcontextprotocol/server');
  });

  it('a usage error is reported without running the HTTP client or loading node:http', async () => {
    const { run, packages, builtins } = await whatRunLoads(bed, ['library', '--limit', '0']);
    expect(run.code).toBe(2);
    expect(packages).not.toContain('undici');
    expect(builtins).not.toContain('http');
  });

  it.each(HEAVY)('%s is a real dependency name (the list above is not stale)', (name) => {
    // What dist/ bundles is a devDependency (the npm package installs only what it cannot carry).
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as Record<
      'dependencies' | 'devDependencies',
      Record<string, string>
    >;
    expect([...Object.keys(manifest.dependencies), ...Object.keys(manifest.devDependencies)]).toContain(name);
  });
});

describe('the stored help and version', () => {
  it('lk --help prints exactly what commander prints for `lk help` at 80 columns', async () => {
    const fast = await runLk(['--help']);
    const full = await runLk(['help']);
    expect(full.code).toBe(0);
    expect(fast.stdout).toBe(full.stdout);
    expect(fast.stdout).toContain('Usage: lk');
    for (const line of fast.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('lk --version prints the version of package.json', async () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect((await runLk(['--version'])).stdout).toBe(`${manifest.version}\n`);
  });
});
