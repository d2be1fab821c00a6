import type { Command } from 'commander';
import { DATA, TEXT, type OutputShape } from '../output/shape.js';
import { accountName, fetchMe } from '../api/account.js';
import { assertTransportAllowed, normaliseBaseUrl, usesInsecureHttp } from '../config/base-url.js';
import { describeMalformedKey, isWellFormedKey } from '../config/key.js';
import { maskKey } from '../util/redact.js';
import { keyringMayAnswer, keyringName } from '../config/keyring.js';
import { configFilePath, updateStoredConfig } from '../config/store.js';
import type { Context } from '../context.js';
import { ApiError, AuthError, LkError, NotLoggedInError, UsageError } from '../util/errors.js';
import { Settings, type KeySource, type ResolvedKey } from '../config/resolve.js';
import type { Colors } from '../output/colors.js';
import { getPath } from '../util/object-path.js';
import { renderSingle } from '../output/render.js';
import { formatterFor } from '../output/formatters.js';
import { readFirstLine, readHidden } from '../output/prompt.js';
import type { OutputSession } from '../output/session.js';
import { addCommand, defineCommand, operand } from './define.js';
import { flag, type OptionsOf } from './flags.js';
import { examples } from './options.js';

/** lk auth status: a table of its own on a terminal, --fields in the data formats. */
const AUTH_STATUS: OutputShape = { ...DATA, fields: ['json', 'ndjson', 'csv', 'tsv'], header: ['csv', 'tsv'] };
const LOGIN_FLAGS = {
  withKey: flag.toggle('--with-key', 'read the key from standard input instead of asking'),
  allowHttp: flag.toggle('--allow-http', 'allow plain http to this non-loopback instance (a self-hosted one at home)'),
  insecureStorage: flag.toggle('--insecure-storage', 'keep the key in the config file (mode 0600) even where a system keyring answers'),
};

const loginCommand = defineCommand({
  name: 'login',
  description: 'check a key against the instance (GET /v1/me) and store it in the profile',
  output: TEXT,
  flags: LOGIN_FLAGS,
  examples: [
    'lk auth login --base-url https://tracker.example.org',
    'lk auth login --base-url https://tracker.example.org --with-key < ~/.secrets/lk-key',
    'pass show lk | lk auth login --profile work --with-key',
  ],
  run: (ctx, _out, options) => login(ctx, options),
});

const statusCommand = defineCommand({
  name: 'status',
  description: 'which instance and key are in use, where they come from, and what the key may do',
  output: AUTH_STATUS,
  examples: ['lk auth status', 'lk auth status --json | jq .scopes'],
  run: (ctx, out) => status(ctx, out),
});

const switchCommand = defineCommand({
  name: 'switch',
  description: 'make a stored profile the default (used when neither --profile nor LK_PROFILE names one)',
  output: TEXT,
  operands: [operand('<name>', 'a stored profile', { complete: { dynamic: { args: ['completion', '--profiles'] } } })],
  examples: ['lk auth switch work', 'lk auth status'],
  run: (ctx, _out, _options, [name]) => switchProfile(ctx, name),
});

const tokenCommand = defineCommand({
  name: 'token',
  description: 'print the key for scripts; refused on a terminal unless --show',
  output: TEXT,
  flags: { show: flag.toggle('--show', 'print it even on a terminal (it stays on the screen and in the scrollback)') },
  examples: ['curl -H "Authorization: Bearer $(lk auth token)" https://tracker.example.org/v1/me', 'lk auth token --profile work | wl-copy'],
  run: (ctx, out, options) => token(ctx, out, options),
});

const logoutCommand = defineCommand({
  name: 'logout',
  description: "forget the profile's stored key",
  output: TEXT,
  examples: ['lk auth logout', 'lk auth logout --profile work'],
  run: (ctx) => logout(ctx),
});

export function registerAuth(program: Command): void {
  const auth = program
    .command('auth')
    .description('log in to an instance, check or forget the stored key')
    .addHelpText(
      'after',
      examples(
        'lk auth login --base-url https://tracker.example.org',
        'lk auth status',
        "lk auth status --json | jq -r '.baseUrlSource, .keySource'",
      ),
    );
  addCommand(auth, loginCommand);
  addCommand(auth, statusCommand);
  addCommand(auth, switchCommand);
  addCommand(auth, tokenCommand);
  addCommand(auth, logoutCommand);
}

async function login(ctx: Context, options: OptionsOf<typeof LOGIN_FLAGS>): Promise<void> {
  const profileName = ctx.settings.profileName;
  const rawBaseUrl = ctx.settings.baseUrlChoice().raw;
  if (!rawBaseUrl) throw new UsageError('which instance? pass --base-url URL (the address in front of /v1)');
  const baseUrl = normaliseBaseUrl(rawBaseUrl);
  assertTransportAllowed(baseUrl, Boolean(options.allowHttp));

  let key: string;
  if (options.withKey) key = await readFirstLine(ctx.io);
  else if (ctx.io.mayPrompt) key = (await readHidden(ctx.io, `Paste the API key for ${new URL(baseUrl).host} (input hidden): `)).trim();
  else throw new UsageError('no terminal to ask for the key on', 'Pipe it in: `lk auth login --with-key < keyfile`.');
  if (!key) throw new UsageError('no key given');
  if (!isWellFormedKey(key)) {
    throw new AuthError(`that is not an API key (${describeMalformedKey(key)}): keys look like lk_ and 49 letters or digits`);
  }

  const client = await ctx.client({ key, baseUrl });
  try {
    const me = (await fetchMe(client, key)).json;
    const account = accountName(me);
    const inKeyring = await storeInKeyring(ctx, profileName, key, Boolean(options.insecureStorage));
    await updateStoredConfig(ctx.configDir, (config) => {
      config.profiles ??= {};
      config.profiles[profileName] = {
        ...config.profiles[profileName],
        baseUrl,
        key: inKeyring ? undefined : key,
        keyring: inKeyring ? true : undefined,
        allowHttp: usesInsecureHttp(baseUrl) ? true : undefined,
        account,
      };
    });
    const where = inKeyring ? keyringName() : configFilePath(ctx.configDir);
    ctx.io.info(
      `Logged in to ${new URL(baseUrl).host} as ${account ?? 'unknown account'} with ${maskKey(key)} (profile "${profileName}", key in ${where}).`,
    );
    if (ctx.env.LK_API_KEY || ctx.env.LK_API_KEY_FILE) {
      ctx.io.warn(`lk: note: ${ctx.env.LK_API_KEY ? 'LK_API_KEY' : 'LK_API_KEY_FILE'} is set and overrides the stored key.`);
    }
  } finally {
    await client.close();
  }
}

/** Days before expiry from which auth status warns (SPEC.md: the server emails a week before). */
const EXPIRY_WARNING_DAYS = 14;
const DAY_MS = 86_400_000;

/** One profile as `lk auth status --json` reports it: the same keys every time, null where unknown. */
interface ProfileReport {
  profile: string;
  active: boolean;
  baseUrl: string | null;
  baseUrlSource: string | null;
  account: string | null;
  key: string | null;
  keySource: KeySource | null;
  keyOrigin: string | null;
  scopes: unknown[] | null;
  /** The server's expiry date; null when it never expires or did not say (see `expiry`). */
  expiresAt: string | null;
  expiry: 'never' | 'unknown' | 'valid' | 'soon' | 'expired' | null;
  expiresInDays: number | null;
  rateLimit: unknown;
  /** ok; refused (401); not-logged-in (no key or no instance); error (anything else: unreachable, malformed key…). */
  status: 'ok' | 'refused' | 'not-logged-in' | 'error';
  error: string | null;
}

/**
 * Every profile (only the one named with --profile): the active one first, with the environment's overrides
 * (LK_API_KEY, LK_BASE_URL), the others as stored. A profile whose key is refused is still shown (instance, key and
 * where it came from are what one needs then), and the exit code is 3 afterwards.
 */
async function status(ctx: Context, out: OutputSession): Promise<void> {
  const active = ctx.settings.profileName;
  const stored = Object.keys(ctx.settings.stored.profiles ?? {}).sort();
  const names = ctx.flags.profile !== undefined ? [active] : [active, ...stored.filter((name) => name !== active)];
  const output = await out.outputOptions();
  const reports: ProfileReport[] = [];
  for (const name of names) reports.push(await profileReport(ctx, name, name === active));
  const first = reports[0]!;
  if (first.status === 'not-logged-in' && first.baseUrl === null && reports.length === 1 && stored.length === 0) {
    // Nothing configured at all: the answer is "log in", not an empty report.
    throw new AuthError(
      `not logged in (profile "${active}")`,
      'Run `lk auth login --base-url https://your.instance`, or set LK_BASE_URL and LK_API_KEY.',
    );
  }
  for (const report of reports) {
    if (report.expiry === 'soon' || report.expiry === 'expired') {
      const when = report.expiry === 'expired' ? 'expired' : `expires in ${report.expiresInDays} day${report.expiresInDays === 1 ? '' : 's'}`;
      ctx.io.warn(
        `lk: warning: the key of profile "${report.profile}" ${when} (${report.expiresAt}); create a new one in the web app, then run \`lk auth login\``,
      );
    }
  }
  if (output.format === 'table' || output.format === 'plain') await out.io.write(await statusTable(ctx, reports, output.display.colors));
  else if (output.format === 'json') await renderSingle({ ...first, profiles: reports }, undefined, output);
  else {
    // ndjson, csv, tsv: a row per profile.
    const writer = (await formatterFor(output.format)).listing({ noun: ['profile', 'profiles'], columns: [] }, output);
    await writer.write(reports);
    await writer.end();
  }
  const failed = reports.find((report) => report.status === 'refused') ?? (first.status === 'not-logged-in' ? first : undefined);
  if (failed) {
    const overridden = failed.active && (failed.keySource === 'LK_API_KEY' || failed.keySource === 'LK_API_KEY_FILE');
    const hint = overridden
      ? `${failed.keySource} is set and overrides the stored login of profile "${failed.profile}": fix or unset it (lk auth login does not change it).`
      : `Log in again: \`lk auth login${failed.profile === 'default' ? '' : ` --profile ${failed.profile}`}\`.`;
    throw new AuthError(
      failed.status === 'refused' ? `the key of profile "${failed.profile}" was refused` : `not logged in (profile "${failed.profile}")`,
      hint,
    );
  }
  const broken = reports.find((report) => report.status === 'error' && report.active);
  if (broken) throw new LkError(`profile "${broken.profile}": ${broken.error}`);
}

async function profileReport(ctx: Context, name: string, active: boolean): Promise<ProfileReport> {
  // Only the active profile takes the environment's and the flag's overrides; the others are shown as stored.
  const env = active ? ctx.env : { ...ctx.env, LK_API_KEY: undefined, LK_API_KEY_FILE: undefined, LK_BASE_URL: undefined };
  const settings = new Settings(
    ctx.settings.stored,
    { ...ctx.settings.flags, profile: name, baseUrl: active ? ctx.settings.flags.baseUrl : undefined },
    env,
    ctx.configDir,
  );
  const report: ProfileReport = {
    profile: name,
    active,
    baseUrl: null,
    baseUrlSource: null,
    account: settings.profile?.account ?? null,
    key: null,
    keySource: null,
    keyOrigin: null,
    scopes: null,
    expiresAt: null,
    expiry: null,
    expiresInDays: null,
    rateLimit: null,
    status: 'ok',
    error: null,
  };
  const failWith = (status: ProfileReport['status'], error: unknown) => {
    report.status = status;
    report.error = error instanceof Error ? error.message : String(error);
    return report;
  };
  let key: ResolvedKey;
  try {
    key = await settings.keyWithKeyring();
    report.key = maskKey(key.key);
    report.keySource = key.source;
    report.keyOrigin = key.origin;
  } catch (error) {
    try {
      const instance = settings.instance();
      report.baseUrl = instance.baseUrl;
      report.baseUrlSource = instance.baseUrlSource;
    } catch {
      // neither key nor instance
    }
    return failWith(error instanceof NotLoggedInError ? 'not-logged-in' : 'error', error);
  }
  let instance;
  try {
    instance = settings.instance();
    report.baseUrl = instance.baseUrl;
    report.baseUrlSource = instance.baseUrlSource;
  } catch (error) {
    return failWith('not-logged-in', error);
  }
  if (!isWellFormedKey(key.key)) return failWith('refused', new Error(`the key is malformed: keys look like lk_ and 49 letters or digits`));
  const client = await ctx.client({ key: key.key, baseUrl: instance.baseUrl });
  try {
    const me = (await fetchMe(client, key.key)).json;
    report.account = accountName(me) ?? null;
    const scopes = getPath(me, 'key.scopes');
    report.scopes = Array.isArray(scopes) ? scopes : null;
    report.rateLimit = getPath(me, 'rateLimit') ?? null;
    // null is the server saying "never"; a missing field says nothing.
    const expiresAt = getPath(me, 'key.expiresAt');
    if (expiresAt === null) report.expiry = 'never';
    else if (typeof expiresAt !== 'string' || Number.isNaN(Date.parse(expiresAt))) report.expiry = 'unknown';
    else {
      report.expiresAt = expiresAt;
      const days = Math.floor((Date.parse(expiresAt) - ctx.now()) / DAY_MS);
      report.expiresInDays = days;
      report.expiry = Date.parse(expiresAt) <= ctx.now() ? 'expired' : days < EXPIRY_WARNING_DAYS ? 'soon' : 'valid';
    }
  } catch (error) {
    return failWith(error instanceof ApiError && error.status === 401 ? 'refused' : 'error', error);
  } finally {
    await client.close();
  }
  return report;
}

async function statusTable(ctx: Context, reports: ProfileReport[], colors: Colors): Promise<string> {
  const { sanitizeText } = await import('../output/sanitize.js');
  // Every piece from the server or the config is defused first; colour codes are added after, so that they survive.
  const text = (value: unknown): string => sanitizeText(value === undefined || value === null ? '' : String(value));
  const blocks = reports.map((report) => {
    const baseUrlOrigin = report.baseUrlSource === 'profile' ? configFilePath(ctx.configDir) : report.baseUrlSource;
    const keyOrigin = report.keySource === 'LK_API_KEY' ? 'LK_API_KEY' : report.keyOrigin;
    const expires =
      report.expiry === 'never'
        ? 'never'
        : report.expiry === 'unknown'
          ? colors.dim('unknown (not reported by the server)')
          : report.expiry === 'soon'
            ? colors.yellow(`${text(report.expiresAt)} (in ${report.expiresInDays} day${report.expiresInDays === 1 ? '' : 's'})`)
            : report.expiry === 'expired'
              ? colors.red(`${text(report.expiresAt)} (expired)`)
              : text(report.expiresAt);
    const lines: Array<[string, string]> = [
      ['Profile', `${text(report.profile)}${reports.length > 1 && report.active ? ` ${colors.dim('(active)')}` : ''}`],
      ['Instance', report.baseUrl === null ? colors.dim('none') : `${text(report.baseUrl)} ${colors.dim(`(from ${text(baseUrlOrigin)})`)}`],
      ['Account', text(report.account)],
      ['Key', report.key === null ? colors.dim('none') : `${text(report.key)} ${colors.dim(`(from ${text(keyOrigin)})`)}`],
    ];
    if (report.status === 'ok') {
      lines.push(
        ['Scopes', text(report.scopes?.map(String).join(', '))],
        ['Expires', expires],
        ['Rate limit', text(rateLimitText(report.rateLimit))],
      );
    } else {
      const label = report.status === 'refused' ? 'refused' : report.status === 'not-logged-in' ? 'not logged in' : 'error';
      lines.push(['Status', colors.red(text(`${label}: ${report.error}`))]);
    }
    return lines.map(([label, value]) => `${colors.bold(label.padEnd(11))}${value}\n`).join('');
  });
  return blocks.join('\n');
}

async function switchProfile(ctx: Context, name: string): Promise<void> {
  const profiles = Object.keys(ctx.settings.stored.profiles ?? {}).sort();
  if (!profiles.includes(name)) {
    throw new UsageError(
      `no profile "${name}"`,
      profiles.length > 0 ? `Stored profiles: ${profiles.join(', ')}.` : 'Log in first: `lk auth login --profile NAME --base-url URL`.',
    );
  }
  await updateStoredConfig(ctx.configDir, (config) => {
    config.defaultProfile = name;
  });
  ctx.io.info(`Profile "${name}" is now the default.`);
  if (ctx.env.LK_PROFILE && ctx.env.LK_PROFILE !== name)
    ctx.io.warn(`lk: note: LK_PROFILE=${ctx.env.LK_PROFILE} is set and still wins in this environment.`);
}

/** The key as it would be sent (LK_API_KEY, LK_API_KEY_FILE, then the profile's): for `$(lk auth token)`, never for a screen by accident. */
async function token(ctx: Context, out: OutputSession, options: { show?: boolean | undefined }): Promise<void> {
  if (out.io.stdoutIsTTY && !options.show) {
    throw new UsageError(
      'not printing the key to a terminal',
      'Use it in a command, e.g. curl -H "Authorization: Bearer $(lk auth token)" …, or add --show.',
    );
  }
  await out.io.write(`${(await ctx.key()).key}\n`);
}

async function logout(ctx: Context): Promise<void> {
  const profileName = ctx.settings.profileName;
  const profile = ctx.settings.profile;
  if (!profile?.key && !profile?.keyring) {
    ctx.io.info(`No key stored for profile "${profileName}".`);
  } else {
    if (profile.keyring) {
      const { keyringDelete } = await import('../config/keyring.js');
      try {
        await keyringDelete(profileName);
      } catch (error) {
        ctx.io.warn(`lk: warning: could not remove the key from ${keyringName()}: ${(error as Error).message}`);
      }
    }
    await updateStoredConfig(ctx.configDir, (config) => {
      const stored = config.profiles?.[profileName];
      if (stored) {
        delete stored.key;
        delete stored.keyring;
      }
    });
    ctx.io.info(`Forgot the key of profile "${profileName}".`);
  }
  if (ctx.env.LK_API_KEY || ctx.env.LK_API_KEY_FILE) {
    ctx.io.warn(`lk: note: ${ctx.env.LK_API_KEY ? 'LK_API_KEY' : 'LK_API_KEY_FILE'} is still set in this environment.`);
  }
}

/**
 * The keyring when one answers, unless --insecure-storage; else the config file, saying why. Returns true when the
 * key went into the keyring. A keyring that fails is a fallback, never an error.
 */
async function storeInKeyring(ctx: Context, profileName: string, key: string, insecureStorage: boolean): Promise<boolean> {
  if (insecureStorage) return false;
  if (!keyringMayAnswer(ctx.env)) {
    ctx.io.warn(`lk: note: no system keyring here (no session bus); the key goes in ${configFilePath(ctx.configDir)} (mode 0600).`);
    return false;
  }
  const { keyringSet } = await import('../config/keyring.js');
  try {
    await keyringSet(profileName, key);
    return true;
  } catch (error) {
    ctx.io.warn(
      `lk: note: ${keyringName()} did not answer (${(error as Error).message}); the key goes in ${configFilePath(ctx.configDir)} (mode 0600).`,
    );
    return false;
  }
}

function rateLimitText(rateLimit: unknown): string {
  const limit = getPath(rateLimit, 'limit');
  const remaining = getPath(rateLimit, 'remaining');
  if (typeof limit !== 'number') return '';
  return typeof remaining === 'number' ? `${remaining}/${limit} requests left this minute` : `${limit} requests a minute`;
}
