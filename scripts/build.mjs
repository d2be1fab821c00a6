// Builds dist/ with esbuild from one table (BUNDLES): the program as one CommonJS file, the parts only some commands
// load (sandbox, report, mcp) beside it, the launcher's helpers, and dist/static.cjs, the version and top-level help as plain strings so that bin/lk.cjs can answer `lk --version`
// and `lk --help` without loading the program.
import { build } from 'esbuild';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const dist = new URL('../dist/', import.meta.url);
await rm(dist, { recursive: true, force: true });

// One CommonJS file for the program: Node loads it faster than ES modules split into chunks (one file to read, no
// module graph to link, ~40% less time to the first line of lk's code), and what only some commands need is still
// evaluated only when they run: esbuild turns each `import()` inside the bundle into a deferred require, so each
// command's module (the loaders of src/commands/index.ts), with all it imports, is evaluated by its own run alone. The
// sandbox, a server of its own, is a second file, loaded by `lk sandbox` alone.
const commonJs = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  supported: { 'dynamic-import': false },
  sourcemap: false,
  // The licences of the bundled packages in dist/*.LEGAL.txt, not in the file every start reads.
  legalComments: 'external',
  logLevel: 'warning',
  // Paths as the source tree spells them, not where a link leads: the bundles name each module's path in a comment,
  // and a node_modules that is a link (a CI cache, a second checkout's) would otherwise put the link's target — a
  // path of the build machine — into dist/ and the release, and make two folders build other bytes.
  preserveSymlinks: true,
  plugins: [],
  // import.meta.url (createRequire of optional packages) as CommonJS knows it.
  define: { 'import.meta.url': '__lkModuleUrl' },
  banner: { js: "const __lkModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
};
// The program's packages are bundled, with whatever they import: one file to read instead of a hundred (each package a
// search through node_modules and a package.json to parse), and no ES module left to load, so no `import()` either
// (esbuild turns each into a deferred require): Node 20.18 cannot require() an ES module, and import() would load
// Node's ES module loader as well. Two stay in node_modules: the OS keyring's native addon, and jq-wasm, which reads its WebAssembly beside its own files; both
// are CommonJS, required when used.
// These two are the package's only runtime `dependencies` (package.json): a prebuilt .node for each platform cannot be
// bundled, nor jq-wasm's jq.wasm; everything else is in dist/ and so a devDependency. (The single file, scripts/sea.mjs,
// carries both as assets instead.)
const EXTERNAL = new Set(['@napi-rs/keyring', 'jq-wasm']);
// Bundled into files of their own beside the program, read only by the runs that use them: conf (with its schema
// validator, a third of the program's size) writes the config file; ora draws the spinner of a long listing; feed (with
// its XML writer) makes lk feed's Atom and JSON Feed; nodemailer sends lk notify's mailto:// mail. Each maps to what the program's import of it should give:
// the package's default export (conf, ora) or its named exports (feed).
const APART = new Map([
  ['conf', 'default'],
  ['ora', 'default'],
  ['feed', 'named'],
  ['nodemailer', 'named'],
]);
const packagesApart = {
  name: 'packages-apart',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      if (APART.has(name) && !args.importer.includes('/node_modules/')) return { path: `./${name}.cjs`, external: true };
      return EXTERNAL.has(name) ? { path: args.path, external: true } : undefined;
    });
  },
};

/**
 * Every bundle as data: its entry, its file in dist/, and which parts it leaves to other files. A side bundle (a part
 * of the program some commands load) is one line with `apart: true`: the program's commands then require its file
 * instead of bundling it. `packages: 'apart'` leaves conf, ora and feed to their files (APART), `ascii` keeps the
 * bundle free of non-ASCII bytes (see asciiOnly), `helper` is a small file the launcher loads without the program.
 */
const BUNDLES = [
  { entry: 'src/cli.ts', output: 'cli.cjs', packages: 'apart', ascii: true },
  // `lk sandbox`: a server of its own, loaded by that command alone.
  { entry: 'src/sandbox/index.ts', output: 'sandbox.cjs', packages: 'apart', apart: true },
  // `lk report`'s figures, page and charts (Apache ECharts, ~1.2 MB even with only the bar chart registered).
  { entry: 'src/report/index.ts', output: 'report.cjs', apart: true },
  // `lk mcp`'s server, with the MCP SDK and zod (several times the program's size).
  { entry: 'src/mcp/index.ts', output: 'mcp.cjs', packages: 'apart', apart: true },
  // The process lk reads the mirror in (src/mirror/query-process.ts): SQLite and the mirror's queries, nothing else.
  { entry: 'src/mirror/query-child.ts', output: 'mirror-query.cjs' },
  // `lk completion --profiles` and `--ids entries|lists` run at every Tab: small files, no program.
  { entry: 'src/completion/profiles.ts', output: 'profiles.cjs', helper: true },
  { entry: 'src/completion/ids.ts', output: 'ids.cjs', helper: true },
  // Aliases and extensions, for Tab and for the launcher's `lk --help` (which it answers from static.cjs when there are none).
  { entry: 'src/extend/names.ts', output: 'local-names.cjs', helper: true },
  // The launcher's compile cache lives in lk's cache folder: the same rule for finding it as the program's.
  { entry: 'src/config/paths.ts', output: 'paths.cjs', helper: true },
];

/** The commands' (and lk serve's) imports of a side bundle's entry (`../report/index.js`) become a require of its file. */
const sideBundles = {
  name: 'side-bundles',
  setup(build) {
    for (const { entry, output } of BUNDLES.filter((bundle) => bundle.apart)) {
      const imported = entry.replace(/^src/, '').replace(/\.ts$/, '.js');
      const filter = new RegExp(`${imported.replace(/[.]/g, '\\.')}$`);
      build.onResolve({ filter }, (args) =>
        /\/src\/(commands|serve|readings)\//.test(args.importer) ? { path: `./${output}`, external: true } : undefined,
      );
    }
  },
};

for (const { entry, output, packages, ascii, helper } of BUNDLES) {
  const outfile = `dist/${output}`;
  if (helper) {
    await build({ entryPoints: [entry], outfile, bundle: true, format: 'cjs', platform: 'node', target: 'node20', logLevel: 'warning' });
    continue;
  }
  // lk mcp's bundle reads the year in review through src/readings as the program does: from dist/report.cjs.
  const plugins = [
    ...(entry === 'src/cli.ts' || entry === 'src/mcp/index.ts' ? [sideBundles] : []),
    ...(packages === 'apart' ? [packagesApart] : []),
  ];
  await build({ ...commonJs, entryPoints: [entry], outfile, plugins });
  if (ascii) await asciiOnly(outfile);
}
for (const [name, exported] of APART) {
  // The default export as module.exports: what `(await import(name)).default` gives the program, as in Node; or the
  // named exports, for `const { Feed } = await import('feed')`.
  const contents = exported === 'default' ? `module.exports = require('${name}').default;` : `module.exports = require('${name}');`;
  const reexport = { contents, resolveDir: process.cwd(), loader: 'js' };
  await build({ ...commonJs, stdin: reexport, outfile: `dist/${name}.cjs` });
}

/**
 * Every start reads dist/cli.cjs whole, and one non-ASCII character makes V8 hold all of it as two bytes a character
 * (~1.5 ms more a start). esbuild escapes them in strings, identifiers and regular expressions (charset 'ascii'), not
 * in the comments it keeps ("…", "→"): there they become "?". Unminified on purpose, for readable stacks.
 */
async function asciiOnly(file) {
  const text = await readFile(file, 'utf8');
  await writeFile(file, text.replace(/[^\x00-\x7f]/g, '?'));
}

const { manPages, topLevelHelp, VERSION } = createRequire(import.meta.url)('../dist/cli.cjs');
await writeFile(
  new URL('static.cjs', dist),
  `// Written by scripts/build.mjs from the command tree; read by bin/lk.cjs.\nexports.VERSION = ${JSON.stringify(VERSION)};\nexports.HELP = ${JSON.stringify(await topLevelHelp(80))};\n`,
);

// The man pages, lk(1) and lk-COMMAND(1), from the same tree as --help (src/man), into man/man1 of the package
// (package.json's directories.man: npm install -g links them into PREFIX/share/man/man1).
const man1 = new URL('../man/man1/', import.meta.url);
await rm(new URL('../man/', import.meta.url), { recursive: true, force: true });
await mkdir(man1, { recursive: true });
for (const page of await manPages()) await writeFile(new URL(`${page.name}.1`, man1), page.roff);
