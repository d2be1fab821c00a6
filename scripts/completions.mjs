// `npm run completions`: regenerates completions/ from the built binary's own command tree, so the scripts
// shipped in the package are exactly what `lk completion SHELL` prints. A test fails when they are stale.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const lk = join(root, 'bin', 'lk.cjs');
const files = { bash: 'lk.bash', zsh: '_lk', fish: 'lk.fish', powershell: 'lk.ps1' };

mkdirSync(join(root, 'completions'), { recursive: true });
for (const [shell, file] of Object.entries(files)) {
  // A clean environment: nothing of the developer's config may leak into a generated file.
  const result = spawnSync(process.execPath, [lk, 'completion', shell], { encoding: 'utf8', env: { PATH: process.env.PATH } });
  if (result.status !== 0) {
    process.stderr.write(result.stderr);
    process.exit(result.status ?? 1);
  }
  writeFileSync(join(root, 'completions', file), result.stdout);
  process.stdout.write(`completions/${file}\n`);
}
