import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Context, type Factory, type RunFlags } from '../../src/context.js';
import { Capture } from '../support/capture.js';
import { tempDir } from '../support/temp-dir.js';

/** A run's private folders: config, cache, data (the mirror). */
export interface FakeHome {
  root: string;
  configDir: string;
  cacheDir: string;
  dataDir: string;
}

export function fakeHome(): FakeHome {
  const root = tempDir('lk-fake-context-');
  return { root, configDir: join(root, 'config'), cacheDir: join(root, 'cache'), dataDir: join(root, 'data') };
}

export interface FakeRun {
  /** The Context a command's run receives, made from the fake factory below. */
  ctx: Context;
  /** What the run said on stderr so far. */
  stderr: () => string;
  home: FakeHome;
}

export interface FakeRunOptions {
  /** Added to an environment of nothing but PATH and the private folders; `undefined` leaves a variable out. */
  env?: Record<string, string | undefined>;
  flags?: RunFlags;
  now?: () => number;
  /** Folders prepared by the test (a config file written first); fresh ones otherwise. */
  home?: FakeHome;
}

/**
 * gh's `runF` for lk: a Context from a fake Factory (pipes for streams, a clock of the test's, an environment of
 * nothing but private folders and what the test adds), for calling a command's gathering function directly, with no
 * program, no parsing and no process.
 */
export function fakeContext(options: FakeRunOptions = {}): FakeRun {
  const home = options.home ?? fakeHome();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home.root,
    LK_CONFIG_DIR: home.configDir,
    LK_CACHE_DIR: home.cacheDir,
    LK_DATA_DIR: home.dataDir,
  };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const stderr = new Capture();
  const factory: Factory = {
    stdout: new Capture(),
    stderr,
    stdin: new PassThrough().end() as PassThrough,
    env,
    argv: ['node', 'lk'],
    now: options.now ?? Date.now,
    // No wait passes in these tests: a command that waited would be a finding.
    sleep: () => Promise.reject(new Error('the run waited')),
  };
  return { ctx: new Context(options.flags ?? {}, factory), stderr: () => stderr.text, home };
}

/** A key of the right form that no instance issued. */
export const UNKNOWN_KEY = `lk_${'x'.repeat(49)}`;
