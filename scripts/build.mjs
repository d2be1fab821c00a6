// Builds dist/ with esbuild: the program as one CommonJS file (and the sandbox as another),
// and dist/static.cjs, the version and top-level help as plain strings so that bin/lk.cjs can answer `lk --version`
// and `lk --help` without loading the program.
import { build } from 'esbuild';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const dist = new URL('../dist/', import.meta.url);
await rm(dist, { recursive: true, force: true });

// One CommonJS file for the program: Node loads it faster than ES modules split into chunks (one file to read, no
// module graph to link, ~40% less time to the first line of lk's code), and what only some commands need is still
// evaluated only when they run (esbuild turns `await import()` inside the bundle into a deferred require). The
// sandbox, a server of its own, is a second file, loaded by `lk sandbox` alone.
const commonJs = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  logLevel: 'warning',
  plugins: [],
  // import.meta.url (createRequire of optional packages) as CommonJS knows it.
  define: { 'import.meta.url': '__lkModuleUrl' },
  banner: { js: "const __lkModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
};
const sandboxApart = {
  name: 'sandbox-apart',
  setup(build) {
    build.onResolve({ filter: /\/sandbox\/index\.js$/ }, (args) =>
      args.importer.includes('/src/commands/') ? { path: './sandbox.cjs', external: true } : undefined,
    );
  },
};
// Packages stay in node_modules, but for ES-module-only ones the program needs synchronously: require() cannot load
// those on Node 20.18 (it can from 20.19), so they are bundled, with whatever they import. undici is bundled too (the
// Agent and request files src/api/undici.ts names): one file to read instead of some fifty, and HTTP/2 loaded only
// when a server offers it.
const BUNDLED = new Set(['string-width', 'undici']);
const lazyHttp2 = {
  name: 'lazy-http2',
  setup(build) {
    // undici's client requires its HTTP/2 side, and with it node:http2 (~20 ms), at load; lk speaks HTTP/1.1 unless
    // a server negotiates h2, so it is required on first use. test/unit/undici-files.test.ts checks the line is there.
    build.onLoad({ filter: /undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const eager = "const connectH2 = require('./client-h2.js')";
      if (!source.includes(eager)) throw new Error(`lazy-http2: undici's client.js no longer has: ${eager}`);
      return { contents: source.replace(eager, "let h2; const connectH2 = (...args) => (h2 ??= require('./client-h2.js'))(...args)"), loader: 'js' };
    });
  },
};
const packagesApart = {
  name: 'packages-apart',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      return BUNDLED.has(name) || args.importer.includes('/node_modules/') ? undefined : { path: args.path, external: true };
    });
  },
};
await build({ ...commonJs, entryPoints: ['src/cli.ts'], outfile: 'dist/cli.cjs', plugins: [sandboxApart, packagesApart, lazyHttp2] });
await build({ ...commonJs, entryPoints: ['src/sandbox/index.ts'], outfile: 'dist/sandbox.cjs', plugins: [packagesApart] });

/** A small CommonJS file the launcher (bin/lk.cjs) loads for an answer that needs no program. */
function launcherHelper(entry, outfile) {
  return build({ entryPoints: [entry], outfile, bundle: true, format: 'cjs', platform: 'node', target: 'node20', logLevel: 'warning' });
}

// `lk completion --profiles` runs at every Tab after --profile: one small CommonJS file, no program.
await launcherHelper('src/completion/profiles.ts', 'dist/profiles.cjs');

// `lk completion --ids entries|lists` runs at every Tab after `lk library show` and the like: the same, for ids.
await launcherHelper('src/completion/ids.ts', 'dist/ids.cjs');

// The launcher's compile cache lives in lk's cache folder: the same rule for finding it as the program's.
await launcherHelper('src/config/paths.ts', 'dist/paths.cjs');

const { topLevelHelp, VERSION } = createRequire(import.meta.url)('../dist/cli.cjs');
await writeFile(
  new URL('static.cjs', dist),
  `// Written by scripts/build.mjs from the command tree; read by bin/lk.cjs.\nexports.VERSION = ${JSON.stringify(VERSION)};\nexports.HELP = ${JSON.stringify(topLevelHelp(80))};\n`,
);
