import type { ApiClient, Waiter } from './api/client.js';
import { pagingConcurrency } from './api/page-queue.js';
import { cacheDir, configDir } from './config/paths.js';
import { Settings, type ResolvedInstance, type ResolvedKey } from './config/resolve.js';
import { permissionWarning, readStoredConfig } from './config/store.js';
import { FORMATS, LANGS, oneOf } from './config/settings.js';
import { describeMalformedKey, isWellFormedKey } from './config/key.js';
import { usesInsecureHttp } from './config/base-url.js';
import { AuthError, UsageError } from './util/errors.js';
import { folderProblem } from './util/private-folder.js';
import { IoStreams } from './output/io.js';
import { pagerCommand } from './output/pager.js';
import { supportsHyperlinks } from './output/hyperlinks.js';
import { FIELDS_HELP, parseFieldList } from './output/fields.js';
import { JqCapture, JqFilter } from './output/jq.js';
import { chooseFormat } from './output/format-choice.js';
import { countdownWaiter } from './output/progress.js';
import { verboseLine } from './output/verbose.js';
import type { OutputFormat, OutputOptions } from './output/writer.js';
import type { DisplayContext } from './output/view.js';
import type { OutputFile } from './util/output-file.js';

/** The global options as commander hands them over (`--no-x` flags arrive as `x: false`). */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  format?: string;
  json?: boolean;
  ndjson?: boolean;
  csv?: boolean;
  tsv?: boolean;
  fields?: string;
  header?: boolean;
  lang?: string;
  color?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  wait?: boolean;
  maxWait?: string;
  timeout?: string;
  csvSafe?: boolean;
  /** --jq EXPR: the output goes through this jq filter (src/output/jq.ts). */
  jq?: string;
  /** --cache DURATION: answer reads from the response cache. */
  cache?: string;
  /** --no-pager arrives as pager: false. */
  pager?: boolean;
  /** -o FILE of the command (listings, calendar): the output goes there, whole or not at all. */
  output?: string;
  cacert?: string;
}

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

/** Everything a command needs, built once per run and handed down (STYLE.md's context). */
export class Context {
  readonly env: NodeJS.ProcessEnv;
  readonly io: IoStreams;
  readonly settings: Settings;
  readonly configDir: string;
  readonly cacheDir: string;
  readonly now: () => number;
  readonly signal: AbortSignal | undefined;
  private readonly sleep: Waiter;
  private apiClient: ApiClient | undefined;
  private cacheChecked: { dir: string | undefined } | undefined;
  private resolvedKey: Promise<ResolvedKey> | undefined;
  private colorsPromise: Promise<DisplayContext['colors']> | undefined;
  /** With --jq: stdout held for the filter; the terminal's own streams stay here. */
  private readonly jqCapture: JqCapture | undefined;
  private jqFilter: JqFilter | undefined;
  private outputFile: OutputFile | undefined;

  constructor(
    readonly options: GlobalOptions,
    readonly factory: Factory,
  ) {
    this.env = factory.env;
    this.now = factory.now;
    this.signal = factory.signal;
    this.sleep = factory.sleep;
    this.configDir = configDir(this.env);
    this.cacheDir = cacheDir(this.env);
    this.settings = new Settings(
      readStoredConfig(this.configDir),
      {
        profile: options.profile,
        baseUrl: options.baseUrl,
        lang: options.lang,
        maxWait: options.maxWait,
        timeout: options.timeout,
        csvSafe: options.csvSafe,
        cacert: options.cacert,
      },
      this.env,
      this.configDir,
    );
    const io = new IoStreams({
      stdout: factory.stdout,
      stderr: factory.stderr,
      stdin: factory.stdin,
      env: this.env,
      quiet: options.quiet,
      verbose: options.verbose || this.env.LK_DEBUG === '1',
      noColorFlag: options.color === false,
      color: this.settings.color(),
      pager: options.pager === false ? undefined : pagerCommand(this.env, this.settings.pager()),
    });
    this.jqCapture = options.jq === undefined ? undefined : new JqCapture(io);
    this.io = this.jqCapture?.io ?? io;
    const warning = permissionWarning(this.configDir);
    if (warning) this.io.warn(warning);
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
    const { ApiClient } = await import('./api/client.js');
    const instance = overrides.baseUrl ? undefined : this.instance();
    const baseUrl = overrides.baseUrl ?? instance!.baseUrl;
    if (instance?.allowHttp && usesInsecureHttp(baseUrl)) {
      this.io.warn(`lk: warning: sending the key over plain http to ${new URL(baseUrl).host} (saved with --allow-http)`);
    }
    const ca = await this.trustedCertificates();
    const client = new ApiClient({
      baseUrl,
      key,
      ca,
      proxyEnv: this.env,
      onExchange: this.io.verbose ? (exchange) => this.io.debug(verboseLine(exchange)) : undefined,
      timeoutMs: this.settings.timeoutSeconds() * 1000,
      maxWaitSeconds: this.settings.maxWaitSeconds(),
      // A probe (lk doctor) reports what it meets: no waiting, no retrying.
      noWait: this.options.wait === false || Boolean(overrides.probe),
      ...(overrides.probe ? { retries: 0 } : {}),
      maxBodyBytes: this.settings.maxBodyBytes(),
      now: this.now,
      wait: this.waiter(),
      signal: this.signal,
      cacheDir: this.usableCacheDir(),
      pagingConcurrency: pagingConcurrency(this.env),
      responseCacheMs: overrides.probe ? undefined : this.responseCacheMs(),
    });
    const proxy = client.proxyFor(new URL(baseUrl));
    if (proxy && new URL(baseUrl).protocol === 'http:' && !overrides.probe) {
      // No TLS inside the tunnel: whoever runs the proxy can read the key.
      this.io.warn(
        `lk: warning: the key goes in clear through the proxy ${proxy} to plain-http ${new URL(baseUrl).host}; use https, or NO_PROXY=${new URL(baseUrl).hostname}`,
      );
    }
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
      if (problem) this.io.warn(`lk: warning: not using the cache: ${problem}. If the folder is yours, run: chmod 700 ${this.cacheDir}`);
      this.cacheChecked = { dir: problem ? undefined : this.cacheDir };
    }
    return this.cacheChecked.dir;
  }

  /** --cache DURATION as milliseconds (`30s`, `5m`, `1h`, `2d`), checked before any request. */
  responseCacheMs(): number | undefined {
    const raw = this.options.cache;
    if (raw === undefined) return undefined;
    const match = /^(\d{1,9})([smhdw])$/.exec(raw.trim());
    const unit = match ? { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[match[2] as 's'] : undefined;
    if (!match || !unit || Number(match[1]) === 0) throw new UsageError(`invalid --cache "${raw}": expected a duration such as 30s, 5m or 1h`);
    return Number(match[1]) * unit;
  }

  /** Node's CAs plus the one --cacert / LK_CA_FILE / `ca-file` names; undefined (Node's own, untouched) when none is. */
  async trustedCertificates(): Promise<string[] | undefined> {
    const caFile = this.settings.caFile();
    if (!caFile) return undefined;
    const { trustedCertificates } = await import('./api/ca.js');
    try {
      return trustedCertificates(caFile.file);
    } catch (error) {
      throw new UsageError(`${(error as Error).message} (from ${caFile.source})`);
    }
  }

  /** Waits announced on stderr (a person should know why nothing happens): a countdown on a terminal, one line in a pipe, nothing with -q. */
  waiter(): Waiter {
    return countdownWaiter(this.io, this.now, this.sleep);
  }

  /** The output format: a shorthand or --format, else the `lk config` default, else table on a terminal, plain rows in a pipe. */
  format(allowed: readonly string[] = FORMATS): OutputFormat | 'ics' {
    // -o FILE is no terminal: plain rows there, as in a pipe.
    const toFile = this.options.output !== undefined && this.options.output !== '-';
    return chooseFormat({
      shorthands: (['json', 'ndjson', 'csv', 'tsv'] as const).filter((name) => this.options[name]),
      format: this.options.format,
      jq: this.options.jq,
      stored: this.settings.format(),
      stdoutIsTTY: this.io.stdoutIsTTY && !toFile,
      allowed,
    });
  }

  /** `--fields help`: list the paths instead (output/render.ts). */
  fieldsHelp(): boolean {
    return this.options.fields?.trim() === FIELDS_HELP;
  }

  fields(): string[] | undefined {
    if (this.options.fields === undefined || this.fieldsHelp()) return undefined;
    const fields = parseFieldList(this.options.fields);
    if (fields.length === 0) throw new UsageError('--fields needs at least one field, e.g. --fields id,work.title,status');
    return fields;
  }

  /**
   * How listings and single resources are written; `ics` is calendar's own, refused here by format(). With -o FILE
   * the output goes to a temporary file that commitOutput() puts in place once the command has succeeded, so the
   * file is whole or untouched; a file is no terminal, so its default is plain rows, without colour.
   */
  async outputOptions(): Promise<OutputOptions> {
    const format = this.format() as OutputFormat;
    const fields = this.fields();
    if (this.options.output !== undefined && this.options.jq !== undefined) {
      throw new UsageError('--jq prints to stdout: it does not combine with -o', 'Redirect instead: lk … --jq EXPR > FILE');
    }
    const io = this.options.output === undefined ? this.io : await this.openOutput(this.options.output);
    return {
      format,
      fields,
      fieldsHelp: this.fieldsHelp(),
      header: this.options.header !== false,
      csvSafe: this.settings.csvSafe(),
      io,
      display: { now: this.now(), colors: await this.colors(io), hyperlinks: supportsHyperlinks(this.env, io.stdoutIsTTY, io.colorEnabled) },
    };
  }

  /** The streams of a run whose stdout is the -o file: stderr, -q and -v as the run's own. */
  private async openOutput(path: string): Promise<IoStreams> {
    if (path === '') throw new UsageError('-o/--output needs a path');
    if (path === '-') return this.io;
    const { openOutputFile } = await import('./util/output-file.js');
    this.outputFile ??= await openOutputFile(path);
    return new IoStreams({
      stdout: this.outputFile.stream,
      stderr: this.factory.stderr,
      stdin: this.factory.stdin,
      env: { ...this.env, COLUMNS: undefined },
      quiet: this.options.quiet,
      verbose: this.io.verbose,
      color: 'never',
    });
  }

  /** Puts the -o file in place (after a successful run) and says so; nothing when there is none. */
  async commitOutput(): Promise<void> {
    const file = this.outputFile;
    if (!file) return;
    this.outputFile = undefined;
    await file.commit();
    if (!file.through) this.io.info(`lk: wrote ${file.path}`);
  }

  colors(io: IoStreams = this.io): Promise<DisplayContext['colors']> {
    if (io !== this.io) return import('picocolors').then(({ default: pc }) => pc.createColors(io.colorEnabled));
    this.colorsPromise ??= import('picocolors').then(({ default: pc }) => pc.createColors(this.io.colorEnabled));
    return this.colorsPromise;
  }

  /** --jq: compiled before anything is requested, so that a typo exits 2 with nothing sent. */
  async compileJq(): Promise<void> {
    if (this.options.jq !== undefined) this.jqFilter = await JqFilter.compile(this.options.jq);
  }

  /** --jq: the command has written its JSON; filter it and print the result. */
  async finishJq(): Promise<void> {
    if (this.jqCapture && this.jqFilter) await this.jqCapture.finish(this.jqFilter);
  }

  async close(): Promise<void> {
    try {
      // A run that did not reach commitOutput() failed: the file the user named stays as it was.
      await this.outputFile?.abort();
      this.outputFile = undefined;
      await this.io.finish();
    } finally {
      await this.apiClient?.close();
    }
  }
}
