import type { Command } from 'commander';
import { DATA, TEXT, type OutputShape } from '../output/shape.js';
import { text, type Text } from '../output/result.js';
import { accountName, fetchMe } from '../api/account.js';
import { assertTransportAllowed, normaliseBaseUrl, usesInsecureHttp } from '../config/base-url.js';
import { describeMalformedKey, isWellFormedKey } from '../config/key.js';
import { maskKey } from '../util/redact.js';
import { keyringMayAnswer, keyringName } from '../config/keyring.js';
import { configFilePath, updateStoredConfig } from '../config/store.js';
import type { Context } from '../context.js';
import { AuthError, UsageError } from '../util/errors.js';
import { readFirstLine, readHidden } from '../output/terminal/prompt.js';
import type { OutputSession } from '../output/session.js';
import { authStatus } from './auth-status.js';
import { addCommand, defineCommand, operand } from './define.js';
import { flag, type OptionsOf } from './flags.js';
import { examples } from './help-layout.js';
import { PROFILE, REQUESTS, TERMINAL_ONLY } from './uses.js';
import { keyringDelete, keyringSet } from '../config/keyring.js';

/** lk auth status: a table of its own on a terminal, --fields in the data formats. */
const AUTH_STATUS: OutputShape = { ...DATA, fields: ['json', 'ndjson', 'csv', 'tsv'], header: ['csv', 'tsv'] };
const LOGIN_FLAGS = {
  withKey: flag.toggle('--with-key', 'read the key from standard input instead of asking'),
  allowHttp: flag.toggle('--allow-http', 'allow plain http to this non-loopback instance (a self-hosted one at home)'),
  insecureStorage: flag.toggle('--insecure-storage', 'keep the key in the config file (mode 0600) even where a system keyring answers'),
};

const loginCommand = defineCommand({
  name: 'login',
  uses: REQUESTS,
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
  uses: REQUESTS,
  description: 'which instance and key are in use, where they come from, and what the key may do',
  output: AUTH_STATUS,
  examples: ['lk auth status', 'lk auth status --json | jq .scopes'],
  run: (ctx) => authStatus(ctx),
});

const switchCommand = defineCommand({
  name: 'switch',
  uses: TERMINAL_ONLY,
  description: 'make a stored profile the default (used when neither --profile nor LK_PROFILE names one)',
  output: TEXT,
  operands: [operand('<name>', 'a stored profile', { complete: { dynamic: { args: ['completion', '--profiles'] } } })],
  examples: ['lk auth switch work', 'lk auth status'],
  run: (ctx, _out, _options, [name]) => switchProfile(ctx, name),
});

const tokenCommand = defineCommand({
  name: 'token',
  uses: PROFILE,
  description: 'print the key for scripts; refused on a terminal unless --show',
  output: TEXT,
  flags: { show: flag.toggle('--show', 'print it even on a terminal (it stays on the screen and in the scrollback)') },
  examples: ['curl -H "Authorization: Bearer $(lk auth token)" https://tracker.example.org/v1/me', 'lk auth token --profile work | wl-copy'],
  run: (ctx, out, options) => token(ctx, out, options),
});

const logoutCommand = defineCommand({
  name: 'logout',
  uses: PROFILE,
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
async function token(ctx: Context, out: OutputSession, options: { show?: boolean | undefined }): Promise<Text> {
  if (out.io.stdoutIsTTY && !options.show) {
    throw new UsageError(
      'not printing the key to a terminal',
      'Use it in a command, e.g. curl -H "Authorization: Bearer $(lk auth token)" …, or add --show.',
    );
  }
  return text(`${(await ctx.key()).key}\n`);
}

async function logout(ctx: Context): Promise<void> {
  const profileName = ctx.settings.profileName;
  const profile = ctx.settings.profile;
  if (!profile?.key && !profile?.keyring) {
    ctx.io.info(`No key stored for profile "${profileName}".`);
  } else {
    if (profile.keyring) {
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
