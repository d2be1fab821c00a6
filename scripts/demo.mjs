// `npm run demo`: starts the bundled sandbox, runs a few real `lk` commands against it, and stops it.
// Nothing touches your own configuration: the demo uses a temporary config and cache folder.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const lk = join(root, 'bin', 'lk.cjs');
const home = mkdtempSync(join(tmpdir(), 'lk-demo-'));

const sandbox = spawn(process.execPath, [lk, 'sandbox', '--json', '--entries', '500'], { stdio: ['ignore', 'pipe', 'inherit'] });
const info = await new Promise((resolve, reject) => {
  let text = '';
  sandbox.stdout.setEncoding('utf8');
  sandbox.stdout.on('data', (chunk) => {
    text += chunk;
    try {
      resolve(JSON.parse(text));
    } catch {
      // not the whole object yet
    }
  });
  sandbox.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before it was ready`)));
});

const full = info.keys.find((key) => key.name === 'full');
const env = {
  ...process.env,
  LK_BASE_URL: info.url,
  LK_API_KEY: full.key,
  LK_CONFIG_DIR: join(home, 'config'),
  LK_CACHE_DIR: join(home, 'cache'),
  NOGAMES_KEY: info.keys.find((key) => key.name === 'nogames').key,
};

// The pipelines below call `lk` by name, as a user would after `npm link`.
const binDir = join(home, 'bin');
mkdirSync(binDir);
symlinkSync(lk, join(binDir, 'lk'));

// Bold command lines on a terminal only, by the rules lk itself follows: `npm run demo > demo.txt` stays plain text.
const bold = (() => {
  if (process.env.NO_COLOR) return (text) => text;
  if (process.env.FORCE_COLOR && process.env.FORCE_COLOR !== '0') return (text) => `\u001b[1m${text}\u001b[0m`;
  return process.stdout.isTTY ? (text) => `\u001b[1m${text}\u001b[0m` : (text) => text;
})();

function show(title, args, shell) {
  process.stdout.write(`\n${bold(`$ ${shell ?? `lk ${args.join(' ')}`}`)}   # ${title}\n`);
  const result = shell
    ? spawnSync('sh', ['-c', shell], { stdio: 'inherit', env: { ...env, PATH: `${binDir}:${process.env.PATH}` } })
    : spawnSync(process.execPath, [lk, ...args], { stdio: 'inherit', env });
  if (result.status !== 0) process.stdout.write(`(exit ${result.status})\n`);
}

try {
  process.stdout.write(`Sandbox running at ${info.url} with demo keys: ${info.keys.map((key) => key.name).join(', ')}\n`);
  show('who the key belongs to', ['whoami']);
  show('what you are in the middle of', ['library', '--phase', 'IN_PROGRESS', '--limit', '8']);
  show('your best-rated finished works', [
    'library',
    '--phase',
    'DONE',
    '--sort',
    'rating',
    '--limit',
    '5',
    '--fields',
    'work.title,work.type,rating',
  ]);
  show('the latest history', ['history', '--limit', '6']);
  show('the whole library, counted by phase in a pipeline', [], 'lk library --all --tsv --no-header --fields phase | sort | uniq -c');
  show('an account that has disabled games', [], 'LK_API_KEY=$NOGAMES_KEY lk library --domain GAMES');
  process.stdout.write(
    [
      '',
      'To go on:',
      '  npm link                 # puts lk on your PATH (or run it as npx lk …, from this folder)',
      '  lk sandbox               # a sandbox of your own; it prints the LK_BASE_URL and LK_API_KEY to use',
      '  lk --help                # every command; lk COMMAND --help for its flags and examples',
      '',
    ].join('\n'),
  );
} finally {
  sandbox.kill('SIGTERM');
  rmSync(home, { recursive: true, force: true });
}
