#!/usr/bin/env node
// npm test, after its build (pretest): the typecheck and the lint (npm run typecheck, npm run lint) run beside the
// whole vitest run instead of before it. Much of vitest's time is spent waiting on the processes, shells, terminals
// and browser its tests start; on a 2-core machine the checks use that idle CPU. They run at a lower priority (nice
// 10, inherited by everything they start), so the tests never wait on them, and what they print is held and printed
// after vitest's report. The run fails if either fails.
//
//   node scripts/test.mjs [vitest arguments…]
//   node scripts/test.mjs --quick [vitest arguments…]   the in-process tests alone (LK_TESTS=in-process), no checks:
//                                                       npm run test:quick, the loop after a change
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

if (process.argv[2] === '--checks') {
  // This process's priority is its children's: set before any of them starts.
  try {
    setPriority(10);
  } catch {
    // a priority we may not set: the checks run at the tests' own
  }
  for (const script of ['typecheck', 'lint']) {
    const { status } = spawnSync(npm, ['run', script], { cwd: root, stdio: 'inherit' });
    if (status !== 0) process.exit(status ?? 1);
  }
  process.exit(0);
}

if (process.argv[2] === '--quick') {
  const quick = spawn(process.execPath, [`${root}node_modules/vitest/vitest.mjs`, 'run', ...process.argv.slice(3)], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, LK_TESTS: 'in-process' },
  });
  quick.on('close', (code) => process.exit(code ?? 1));
} else {
  await wholeSuite();
}

async function wholeSuite() {
  const held = [];
  const checks = spawn(process.execPath, [fileURLToPath(import.meta.url), '--checks'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  checks.stdout.on('data', (chunk) => held.push(chunk));
  checks.stderr.on('data', (chunk) => held.push(chunk));
  const checked = new Promise((resolve) => checks.on('close', (code) => resolve(code ?? 1)));

  const vitest = spawn(process.execPath, [`${root}node_modules/vitest/vitest.mjs`, 'run', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
  const tested = await new Promise((resolve) => vitest.on('close', (code) => resolve(code ?? 1)));

  const checkedCode = await checked;
  process.stdout.write(`\n=== typecheck and lint (npm run typecheck, npm run lint), run beside the tests ===\n`);
  process.stdout.write(Buffer.concat(held));
  process.stdout.write(checkedCode === 0 ? 'typecheck and lint: passed\n' : `typecheck and lint: FAILED (exit ${checkedCode})\n`);
  if (checkedCode !== 0 && process.env.LK_FAILED_TESTS_FILE) {
    // .ci/run's list of what failed (test/support/failure-list.ts): the checks' last words, on one line.
    const last = Buffer.concat(held)
      .toString()
      .trim()
      .split('\n')
      .filter((line) => line.trim() !== '')
      .slice(-6);
    const step = process.env.LK_FAILED_TESTS_STEP ? `[${process.env.LK_FAILED_TESTS_STEP}] ` : '';
    appendFileSync(process.env.LK_FAILED_TESTS_FILE, `${step}typecheck and lint (exit ${checkedCode}): ${last.join(' | ').slice(0, 600)}\n`);
  }
  process.exit(tested !== 0 ? tested : checkedCode);
}
