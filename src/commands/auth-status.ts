import { KEY_SOCKET_VARIABLE } from '../config/key-socket-name.js';
import { accountName, fetchMe } from '../api/account.js';
import { isWellFormedKey } from '../config/key.js';
import { Settings, type ResolvedKey } from '../config/resolve.js';
import { configFilePath } from '../config/store.js';
import type { Context } from '../context.js';
import type { ProfileReport } from '../output/wording/auth-status.js';
import type { OwnWriting } from '../output/result.js';
import { ApiError, AuthError, LkError, NotLoggedInError } from '../util/errors.js';
import type { OutputSession } from '../output/session.js';
import { keyExpiresAtOf, keyScopesOf, rateLimitOf } from '../items/account.js';
import { maskKey } from '../util/redact.js';

/** Days before expiry from which auth status warns (docs/api.md: the server emails a week before). */
const EXPIRY_WARNING_DAYS = 14;
const DAY_MS = 86_400_000;

/**
 * Every profile (only the one named with --profile): the active one first, with the environment's overrides
 * (LK_API_KEY, LK_BASE_URL), the others as stored. A profile whose key is refused is still shown (instance, key and
 * where it came from are what one needs then), and the exit code is 3 afterwards.
 */
export async function authStatus(ctx: Context): Promise<OwnWriting & { reports: ProfileReport[] }> {
  const active = ctx.settings.profileName;
  const stored = Object.keys(ctx.settings.stored.profiles ?? {}).sort();
  const names = ctx.flags.profile !== undefined ? [active] : [active, ...stored.filter((name) => name !== active)];
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
  const configFile = configFilePath(ctx.configDir);
  // Its layout measures with string-width (output/wording/account.ts): loaded when the reports are written, not by lk auth's other commands.
  const write = async (out: OutputSession) => (await import('../output/wording/auth-status.js')).writeProfileStatus(reports, configFile, out);
  return { kind: 'own', write, failure: failureOf(reports), reports };
}

/** What the run ends with once the reports are shown: exit 3 for a refused key or no login, 1 for another error. */
function failureOf(reports: ProfileReport[]): LkError | undefined {
  const first = reports[0]!;
  const failed = reports.find((report) => report.status === 'refused') ?? (first.status === 'not-logged-in' ? first : undefined);
  if (failed) {
    const overridden =
      failed.active && (failed.keySource === 'LK_API_KEY' || failed.keySource === 'LK_API_KEY_FILE' || failed.keySource === 'LK_KEY_SOCKET');
    const hint = overridden
      ? `${failed.keySource} is set and overrides the stored login of profile "${failed.profile}": fix or unset it (lk auth login does not change it).`
      : `Log in again: \`lk auth login${failed.profile === 'default' ? '' : ` --profile ${failed.profile}`}\`.`;
    return new AuthError(
      failed.status === 'refused' ? `the key of profile "${failed.profile}" was refused` : `not logged in (profile "${failed.profile}")`,
      hint,
    );
  }
  const broken = reports.find((report) => report.status === 'error' && report.active);
  return broken ? new LkError(`profile "${broken.profile}": ${broken.error}`) : undefined;
}

async function profileReport(ctx: Context, name: string, active: boolean): Promise<ProfileReport> {
  // Only the active profile takes the environment's and the flag's overrides; the others are shown as stored.
  const env = active
    ? ctx.env
    : { ...ctx.env, LK_API_KEY: undefined, LK_API_KEY_FILE: undefined, [KEY_SOCKET_VARIABLE]: undefined, LK_BASE_URL: undefined };
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
    const scopes = keyScopesOf(me);
    report.scopes = Array.isArray(scopes) ? scopes : null;
    report.rateLimit = rateLimitOf(me) ?? null;
    // null is the server saying "never"; a missing field says nothing.
    const expiresAt = keyExpiresAtOf(me);
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
