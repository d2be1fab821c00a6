import type { Command } from 'commander';
import { accountName, fetchMe } from '../api/account.js';
import { assertTransportAllowed, normaliseBaseUrl, usesInsecureHttp } from '../config/base-url.js';
import { describeMalformedKey, isWellFormedKey, maskKey } from '../config/key.js';
import { configFilePath, updateStoredConfig } from '../config/store.js';
import type { Context } from '../context.js';
import { AuthError, UsageError } from '../util/errors.js';
import { getPath } from '../util/object-path.js';
import { renderSingle } from '../output/render.js';
import { readFirstLine, readHidden } from '../output/prompt.js';
import { action } from './action.js';
import { examples } from './options.js';

interface LoginOptions {
  withKey?: boolean;
  allowHttp?: boolean;
  baseUrl?: string;
}

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

  auth
    .command('login')
    .description('check a key against the instance (GET /v1/me) and store it in the profile')
    .option('--with-key', 'read the key from standard input instead of asking')
    .option('--allow-http', 'allow plain http to this non-loopback instance (a self-hosted one at home)')
    .addHelpText(
      'after',
      examples(
        'lk auth login --base-url https://tracker.example.org',
        'lk auth login --base-url https://tracker.example.org --with-key < ~/.secrets/lk-key',
        'pass show lk | lk auth login --profile work --with-key',
      ),
    )
    .action(action<LoginOptions>((ctx, options) => login(ctx, options)));

  auth
    .command('status')
    .description('which instance and key are in use, where they come from, and what the key may do')
    .addHelpText('after', examples('lk auth status', 'lk auth status --json | jq .scopes'))
    .action(action((ctx) => status(ctx)));

  auth
    .command('logout')
    .description("forget the profile's stored key")
    .addHelpText('after', examples('lk auth logout', 'lk auth logout --profile work'))
    .action(action((ctx) => logout(ctx)));
}

async function login(ctx: Context, options: LoginOptions): Promise<void> {
  const profileName = ctx.settings.profileName;
  // CLI.md's precedence, as in src/config/resolve.ts (an empty LK_BASE_URL counts as unset).
  const rawBaseUrl =
    options.baseUrl ?? (ctx.env.LK_BASE_URL || undefined) ?? ctx.settings.profile?.baseUrl ?? (ctx.settings.storedDefault('base-url') as string | undefined);
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
    await updateStoredConfig(ctx.configDir, (config) => {
      config.profiles ??= {};
      config.profiles[profileName] = {
        ...config.profiles[profileName],
        baseUrl,
        key,
        allowHttp: usesInsecureHttp(baseUrl) ? true : undefined,
        account,
      };
    });
    ctx.io.info(`Logged in to ${new URL(baseUrl).host} as ${account ?? 'unknown account'} with ${maskKey(key)} (profile "${profileName}").`);
    if (ctx.env.LK_API_KEY || ctx.env.LK_API_KEY_FILE) {
      ctx.io.warn(`lk: note: ${ctx.env.LK_API_KEY ? 'LK_API_KEY' : 'LK_API_KEY_FILE'} is set and overrides the stored key.`);
    }
  } finally {
    await client.close();
  }
}

async function status(ctx: Context): Promise<void> {
  const instance = ctx.instance();
  const key = ctx.key();
  const client = await ctx.client();
  const output = await ctx.outputOptions();
  const me = (await fetchMe(client, key.key)).json;
  const scopes = getPath(me, 'key.scopes');
  // null is the server saying "never"; a missing field says nothing, so it stays missing.
  const expiresAt = getPath(me, 'key.expiresAt');
  const report = {
    profile: instance.profile,
    baseUrl: instance.baseUrl,
    baseUrlSource: instance.baseUrlSource,
    account: accountName(me) ?? null,
    key: maskKey(key.key),
    keySource: key.source,
    keyOrigin: key.origin,
    scopes: Array.isArray(scopes) ? scopes : null,
    ...(expiresAt === undefined ? {} : { expiresAt }),
    rateLimit: getPath(me, 'rateLimit') ?? null,
  };
  if (output.format !== 'table') {
    await renderSingle(report, undefined, output);
    return;
  }
  const { colors } = output.display;
  const { sanitizeText } = await import('../output/sanitize.js');
  // Every piece from the server or the config is defused first; colour codes are added after, so that they survive.
  const text = (value: unknown): string => sanitizeText(value === undefined || value === null ? '' : String(value));
  const baseUrlOrigin = instance.baseUrlSource === 'profile' ? configFilePath(ctx.configDir) : instance.baseUrlSource;
  const keyOrigin = key.source === 'LK_API_KEY' ? 'LK_API_KEY' : key.origin;
  const lines: Array<[string, string]> = [
    ['Profile', text(report.profile)],
    ['Instance', `${text(report.baseUrl)} ${colors.dim(`(from ${text(baseUrlOrigin)})`)}`],
    ['Account', text(report.account)],
    ['Key', `${text(report.key)} ${colors.dim(`(from ${text(keyOrigin)})`)}`],
    ['Scopes', text(report.scopes?.map(String).join(', '))],
    ['Expires', expiresAt === null ? 'never' : expiresAt === undefined ? colors.dim('unknown (not reported by the server)') : text(expiresAt)],
    ['Rate limit', text(rateLimitText(report.rateLimit))],
  ];
  await ctx.io.write(lines.map(([label, value]) => `${colors.bold(label.padEnd(11))}${value}\n`).join(''));
}

async function logout(ctx: Context): Promise<void> {
  const profileName = ctx.settings.profileName;
  if (!ctx.settings.profile?.key) {
    ctx.io.info(`No key stored for profile "${profileName}".`);
  } else {
    await updateStoredConfig(ctx.configDir, (config) => {
      const profile = config.profiles?.[profileName];
      if (profile) delete profile.key;
    });
    ctx.io.info(`Forgot the key of profile "${profileName}".`);
  }
  if (ctx.env.LK_API_KEY || ctx.env.LK_API_KEY_FILE) {
    ctx.io.warn(`lk: note: ${ctx.env.LK_API_KEY ? 'LK_API_KEY' : 'LK_API_KEY_FILE'} is still set in this environment.`);
  }
}

function rateLimitText(rateLimit: unknown): string {
  const limit = getPath(rateLimit, 'limit');
  const remaining = getPath(rateLimit, 'remaining');
  if (typeof limit !== 'number') return '';
  return typeof remaining === 'number' ? `${remaining}/${limit} requests left this minute` : `${limit} requests a minute`;
}
