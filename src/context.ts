import type { ApiClient, Waiter } from './api/client.js';
import { pagingConcurrency } from './api/page-queue.js';
import { cacheDir, configDir } from './config/paths.js';
import { Settings, type ResolvedInstance, type ResolvedKey } from './config/resolve.js';
import { permissionWarning, readStoredConfig, type StoredConfig } from './config/store.js';
import { LANGS, SETTINGS } from './config/settings.js';
import { describeMalformedKey, isWellFormedKey } from './config/key.js';
import { usesInsecureHttp } from './config/base-url.js';
import { AuthError, UsageError } from './util/errors.js';
import { oneOf } from './util/choice.js';
import { durationMs } from './util/duration.js';
import { folderProblem } from './util/private-folder.js';
import { IoStreams } from './output/terminal/io.js';
import { pagerCommand } from './output/terminal/pager.js';
import { connectionWarning, networkProblemMessage, untrustedCacheWarning } from './output/wording/messages.js';
import { countdownWaiter } from './output/terminal/progress.js';
import { OutputSession, type OutputFlags } from './output/session.js';
import type { DeclaredFormats } from './output/format-choice.js';
import { verboseLine } from './output/wording/verbose.js';

/** The global flags a run's context reads: where settings come from, how the terminal and the client behave. */
export interface RunFlags {
  profile?: string | undefined;
  baseUrl?: string | undefined;
  lang?: string | undefined;
  color?: boolean | undefined;
  quiet?: boolean | undefined;
  verbose?: boolean | undefined;
  wait?: boolean | undefined;
  maxWait?: string | undefined;
  timeout?: string | undefined;
  csvSafe?: boolean | undefined;
  /** --cache DURATION: answer reads from the response cache. */
  cache?: string | undefined;
  /** --no-pager arrives as pager: false. */
  pager?: boolean | undefined;
  cacert?: string | undefined;
}

/**
 * How a command reads the config file: `checked` (every stored default re-validated, a broken one refused), `lenient`
 * (lk config, which must work while a hand-edited value is broken: only a valid `color` is kept, nothing pages) or
 * `unread` (lk completion at Tab time and lk sandbox, which never depend on it).
 */
export type StoredConfigUse = 'checked' | 'lenient' | 'unread';

/**
 * What a run gets from outside (gh's factory): streams, environment, clock and the signal that Ctrl-C aborts. The real
 * process supplies its own (src/cli.ts); a test supplies fakes, and runs any command in-process.
 */
export interface Factory {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** The words of the command line, for the few decisions made before commander has parsed them. */
  argv: string[];
  now: () => number;
  /** How a wait passes: a timer in a real run, a clock moved forward in a test. */
  sleep: Waiter;
  signal?: AbortSignal | undefined;
}

/**
 * Everything a command needs besides its output, built once per run and handed down (STYLE.md's context): the
 * environment, the terminal's streams, the settings, the clock and its waits, the signal, and the lazy API client.
 * One run's output (format, fields, jq, the -o file) is its OutputSession (src/output/session.ts).
 */
export class Context {
  readonly env: NodeJS.ProcessEnv;
  readonly io: IoStreams;
  readonly settings: Settings;
  readonly configDir: string;
  readonly cacheDir: string;
  readonly now: () => number;
  readonly signal: AbortSignal | undefined;
  /** The run's plain wait, with no countdown: for what says its own waits (lk serve's --sync-every turns). */
  readonly sleep: Waiter;
  private apiClient: ApiClient | undefined;
  private readonly heldOpen: (() => void)[] = [];
  private cacheChecked: { dir: string | undefined } | undefined;
  private resolvedKey: Promise<ResolvedKey> | undefined;

  /** `storedConfig` as the command declares it (see StoredConfigUse). */
  constructor(
    /** The run's global flags as typed; Settings weighs them against the environment and the config. */
    readonly flags: RunFlags,
    factory: Factory,
    storedConfig: StoredConfigUse = 'checked',
  ) {
    this.env = factory.env;
    this.now = factory.now;
    this.signal = factory.signal;
    this.sleep = factory.sleep;
    this.configDir = configDir(this.env);
    this.cacheDir = cacheDir(this.env);
    const stored = storedConfig === 'unread' ? {} : readStoredConfig(this.configDir);
    this.settings = new Settings(
      storedConfig === 'lenient' ? withValidColorOnly(stored) : stored,
      {
        profile: flags.profile,
        baseUrl: flags.baseUrl,
        lang: flags.lang,
        maxWait: flags.maxWait,
        timeout: flags.timeout,
        csvSafe: flags.csvSafe,
        cacert: flags.cacert,
      },
      this.env,
      this.configDir,
    );
    this.io = new IoStreams({
      stdout: factory.stdout,
      stderr: factory.stderr,
      stdin: factory.stdin,
      env: this.env,
      quiet: flags.quiet,
      verbose: flags.verbose || this.env.LK_DEBUG === '1',
      noColorFlag: flags.color === false,
      color: this.settings.color(),
      pager: flags.pager === false || storedConfig !== 'checked' ? undefined : pagerCommand(this.env, this.settings.pager()),
    });
    const warning = storedConfig === 'checked' ? permissionWarning(this.configDir) : undefined;
    if (warning) this.io.warn(warning);
  }

  /** The run's output session over this context's terminal and settings. */
  outputSession(flags: OutputFlags, shape: DeclaredFormats): OutputSession {
    return new OutputSession(
      flags,
      {
        io: this.io,
        env: this.env,
        now: this.now,
        storedFormat: () => this.settings.format(),
        csvSafe: () => this.settings.csvSafe(),
      },
      shape,
    );
  }

  /** --lang, else the `lk config` default; checked before any request. */
  lang(): string | undefined {
    const lang = this.settings.lang();
    return lang === undefined ? undefined : oneOf('lang', lang, LANGS);
  }

  instance(): ResolvedInstance {
    return this.settings.instance();
  }

  /** The key, format-checked: a malformed key never leaves the machine. Read once per run. */
  key(): Promise<ResolvedKey> {
    this.resolvedKey ??= this.readKey();
    return this.resolvedKey;
  }

  private async readKey(): Promise<ResolvedKey> {
    const resolved = await this.settings.keyWithKeyring();
    if (resolved.warning) this.io.warn(resolved.warning);
    if (!isWellFormedKey(resolved.key)) {
      throw new AuthError(
        `the key from ${resolved.origin} is malformed (${describeMalformedKey(resolved.key)}): keys look like lk_ and 49 letters or digits`,
        'Copy the whole key from the web app, then run `lk auth login`.',
      );
    }
    return resolved;
  }

  /** The shared API client, built on first use so that commands without requests never load undici. */
  async client(overrides: { key?: string; baseUrl?: string; probe?: boolean } = {}): Promise<ApiClient> {
    const shared = !overrides.key && !overrides.baseUrl && !overrides.probe;
    if (this.apiClient && shared) return this.apiClient;
    // The key first: with nothing configured, "not logged in" (exit 3) is the helpful answer, and needs no HTTP client.
    const key = overrides.key ?? (await this.key()).key;
    const { openClient } = await import('./api/connect.js');
    const instance = overrides.baseUrl ? undefined : this.instance();
    const baseUrl = overrides.baseUrl ?? instance!.baseUrl;
    const client = await openClient({
      baseUrl,
      key,
      plainHttpAllowed: Boolean(instance?.allowHttp) && usesInsecureHttp(baseUrl),
      probe: Boolean(overrides.probe),
      caFile: this.settings.caFile(),
      notify: (notice) => this.io.warn(connectionWarning(notice)),
      describeNetworkProblem: networkProblemMessage,
      proxyEnv: this.env,
      onExchange: this.io.verbose ? (exchange) => this.io.debug(verboseLine(exchange)) : undefined,
      timeoutMs: this.settings.timeoutSeconds() * 1000,
      maxWaitSeconds: this.settings.maxWaitSeconds(),
      // A probe (lk doctor) reports what it meets: no waiting, no retrying.
      noWait: this.flags.wait === false || Boolean(overrides.probe),
      ...(overrides.probe ? { retries: 0 } : {}),
      maxBodyBytes: this.settings.maxBodyBytes(),
      now: this.now,
      wait: this.waiter(),
      signal: this.signal,
      cacheDir: this.usableCacheDir(),
      pagingConcurrency: pagingConcurrency(this.env),
      responseCacheMs: overrides.probe ? undefined : this.responseCacheMs(),
    });
    if (shared) this.apiClient = client;
    return client;
  }

  /**
   * The cache folder when it can be trusted (see folderProblem): one that others can write into may hold planted
   * links or forged exports, so it is left unused, with one warning, and lk works without a cache.
   */
  usableCacheDir(): string | undefined {
    if (!this.cacheChecked) {
      const problem = folderProblem(this.cacheDir);
      if (problem) this.io.warn(untrustedCacheWarning(problem, this.cacheDir));
      this.cacheChecked = { dir: problem ? undefined : this.cacheDir };
    }
    return this.cacheChecked.dir;
  }

  /** --cache DURATION as milliseconds (`30s`, `5m`, `1h`, `2d`), checked before any request. */
  private responseCacheMs(): number | undefined {
    const raw = this.flags.cache;
    if (raw === undefined) return undefined;
    const ms = durationMs(raw);
    if (!ms) throw new UsageError(`invalid --cache "${raw}": expected a duration such as 30s, 5m or 1h`);
    return ms;
  }

  /** Waits announced on stderr (a person should know why nothing happens): a countdown on a terminal, one line in a pipe, nothing with -q. */
  waiter(): Waiter {
    return countdownWaiter(this.io, this.now, this.sleep);
  }

  /**
   * Something the run opened for the result it returns (the mirror, lk sql's query process): closed by close(), once
   * the wrapper has shown the result, showing failed or stopped early, or the run failed after opening it.
   */
  closeWhenDone(close: () => void): void {
    this.heldOpen.push(close);
  }

  async close(): Promise<void> {
    try {
      for (const close of this.heldOpen.splice(0).reverse()) close();
    } finally {
      await this.apiClient?.close();
    }
  }
}

/** The stored config with its `color` default kept only when valid, and no other default (lk config's own view). */
function withValidColorOnly(stored: StoredConfig): StoredConfig {
  const color = stored.defaults?.color;
  return { ...stored, defaults: color !== undefined && isValid('color', color) ? { color } : {} };
}

function isValid(name: 'color', value: string | number | boolean): boolean {
  try {
    SETTINGS[name].parse(String(value));
    return true;
  } catch {
    return false;
  }
}
