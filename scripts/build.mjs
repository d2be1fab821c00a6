// Builds dist/ with esbuild: one ESM entry for the program plus chunks loaded on demand (the sandbox, the formats),
// and dist/static.cjs, the version and top-level help as plain strings so that bin/lk.cjs can answer `lk --version`
// and `lk --help` without loading the program.
import { build } from 'esbuild';
import { rm, writeFile } from 'node:fs/promises';

const dist = new URL('../dist/', import.meta.url);
await rm(dist, { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: false,
  logLevel: 'warning',
});

// `lk completion --profiles` runs at every Tab after --profile: one small CommonJS file, no program.
await build({
  entryPoints: ['src/completion/profiles.ts'],
  outfile: 'dist/profiles.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
});

// The launcher's compile cache lives in lk's cache folder: the same rule for finding it as the program's.
await build({
  entryPoints: ['src/config/paths.ts'],
  outfile: 'dist/paths.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
});

const { topLevelHelp, VERSION } = await import(new URL('cli.js', dist).href);
await writeFile(
  new URL('static.cjs', dist),
  `// Written by scripts/build.mjs from the command tree; read by bin/lk.cjs.\nexports.VERSION = ${JSON.stringify(VERSION)};\nexports.HELP = ${JSON.stringify(topLevelHelp(80))};\n`,
);
