import { createHash } from 'node:crypto';
import { UsageError } from '../util/errors.js';
import { decode, HIDDEN, maskTargetUrl, queryPairs } from '../util/target-mask.js';
import { mailProvider } from './mail-providers.js';

/**
 * Where lk notify sends, named as Apprise names a notification target (a URL whose scheme is the service). lk sends
 * the schemes of BUILT_IN itself, with the URL parameters Apprise gives them (PARAMETERS; any other is refused, never
 * dropped); any other scheme goes to the `apprise` command as written. A target URL carries secrets (a password, a
 * webhook's token): what is shown of it is `masked`, and what the mirror records of it is a hash of its identity.
 */

/** The schemes lk sends itself, each with its sender (./send/). */
export const BUILT_IN = ['ntfy', 'ntfys', 'json', 'jsons', 'mailto', 'mailtos', 'discord'] as const;
export type BuiltInScheme = (typeof BUILT_IN)[number];

export interface Target {
  /** The URL as given (for a scheme handed to apprise, exactly as written: only apprise reads it). */
  readonly raw: string;
  /** The URL parsed, for the senders of built-in schemes (ntfy's several topics: one target per topic). */
  readonly url: URL;
  /** The scheme without its colon, lower case. */
  readonly scheme: string;
  /** A scheme lk sends itself; undefined: handed to `apprise`. */
  readonly builtIn: BuiltInScheme | undefined;
  /** What reaches the same place, spelt one way: the same target whatever its password, default port or query order. */
  readonly identity: string;
  /** What the mirror records of the target: a hash of its identity (the mirror holds no token). */
  readonly id: string;
  /** The ids lk 0.x gave the same target before identities were normalised: what it took then stays taken. */
  readonly formerIds: readonly string[];
  /** What is shown of it (util/target-mask.ts, as lk config get shows it): every secret replaced by ***. */
  readonly masked: string;
}

function isBuiltIn(scheme: string): scheme is BuiltInScheme {
  return (BUILT_IN as readonly string[]).includes(scheme);
}

/** The URL parameters lk takes for each built-in scheme, as Apprise names them: each name, or a prefix (json's). */
const PARAMETERS: Record<BuiltInScheme, { names: readonly string[]; prefixes?: readonly string[]; form: string }> = {
  ntfy: { names: ['priority', 'tags', 'click'], form: 'priority=, tags=, click=' },
  ntfys: { names: ['priority', 'tags', 'click'], form: 'priority=, tags=, click=' },
  json: { names: ['method'], prefixes: ['+', '-', ':'], form: 'method=, +Header=, -query=, :payload=' },
  jsons: { names: ['method'], prefixes: ['+', '-', ':'], form: 'method=, +Header=, -query=, :payload=' },
  mailto: { names: ['to', 'from'], form: 'to=, from=' },
  mailtos: { names: ['to', 'from'], form: 'to=, from=' },
  discord: { names: [], form: 'none' },
};

export const NTFY_PRIORITIES = ['min', 'low', 'default', 'high', 'max', 'urgent', '1', '2', '3', '4', '5'];
export const JSON_METHODS = ['POST', 'PUT', 'PATCH', 'GET', 'DELETE', 'HEAD'];

/**
 * The targets of a URL (ntfy's several topics are one target each), or exit 2 naming what is wrong (the URL itself is
 * never repeated: it may hold a secret). `appriseThere` says whether a scheme lk does not know can be handed to apprise.
 */
export function parseTarget(raw: string, appriseThere: boolean): Target[] {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(raw)?.[1]?.toLowerCase();
  const builtIn = scheme !== undefined && isBuiltIn(scheme) ? scheme : undefined;
  if (scheme === undefined || (builtIn && !URL.canParse(raw))) {
    throw new UsageError(`invalid notify URL ${maskTargetUrl(raw)}: expected scheme://…, such as ntfy://ntfy.sh/my-topic`, KNOWN_HINT);
  }
  if (!builtIn) {
    if (!appriseThere) {
      throw new UsageError(
        `lk cannot send to ${scheme}:// URLs itself, and no apprise command is on PATH to hand them to`,
        `${KNOWN_HINT} Other services: install apprise (apt-get install apprise, or pipx install apprise).`,
      );
    }
    // As written: apprise reads its own forms (tgram://ID:TOKEN/chat is no URL to WHATWG).
    const identity = `${scheme}:${raw.slice(scheme.length + 1)}`;
    const formerIds = URL.canParse(raw) ? [idOf(formerIdentityOf(scheme, new URL(raw)))] : [];
    return [{ raw, url: new URL(`${scheme}://apprise`), scheme, builtIn, identity, id: idOf(identity), formerIds, masked: maskTargetUrl(raw) }];
  }
  const url = new URL(raw);
  checkBuiltIn(builtIn, url);
  const urls = builtIn === 'ntfy' || builtIn === 'ntfys' ? ntfyTopics(url) : [url];
  return urls.map((one) => {
    const identity = identityOf(builtIn, one);
    const former = idOf(formerIdentityOf(builtIn, one));
    return { raw: one.href, url: one, scheme: builtIn, builtIn, identity, id: idOf(identity), formerIds: [former], masked: maskTargetUrl(one.href) };
  });
}

const idOf = (identity: string) => createHash('sha256').update(identity).digest('hex').slice(0, 32);

export const KNOWN_HINT = `lk sends to ${BUILT_IN.map((scheme) => `${scheme}://`).join(', ')} itself; any other scheme goes to the apprise command.`;

/** What each built-in scheme needs, checked before anything is read or sent. */
function checkBuiltIn(scheme: BuiltInScheme, url: URL): void {
  const path = url.pathname.split('/').filter(Boolean);
  const masked = maskTargetUrl(url.href);
  const refuse = (why: string, form: string) => {
    throw new UsageError(`invalid notify URL ${masked}: ${why}`, `Expected ${form}.`);
  };
  if (url.hostname === '') refuse('no host', `${scheme}://host/…`);
  const allowed = PARAMETERS[scheme];
  for (const [name, value] of queryPairs(url)) {
    if (!allowed.names.includes(name.toLowerCase()) && !allowed.prefixes?.some((prefix) => name.startsWith(prefix) && name.length > 1))
      refuse(`lk does not send ${scheme}://'s parameter "${name}"`, `${scheme}:// with ${allowed.form}`);
    if (/^(ntfys?)$/.test(scheme) && name.toLowerCase() === 'priority' && !NTFY_PRIORITIES.includes(value.toLowerCase()))
      refuse('priority= names no ntfy priority', `priority=${NTFY_PRIORITIES.join('|')}`);
    if (/^(jsons?)$/.test(scheme) && name.toLowerCase() === 'method' && !JSON_METHODS.includes(value.toUpperCase()))
      refuse('method= names no HTTP method apprise sends', `method=${JSON_METHODS.join('|')}`);
  }
  if (scheme === 'ntfy' || scheme === 'ntfys') {
    if (path.length === 0) refuse('expected a topic after the host', `${scheme}://[user:pass@]host[:port]/topic[/topic…]`);
  } else if (scheme === 'discord') {
    if (path.length !== 1) refuse('expected the webhook id and token', 'discord://WEBHOOK_ID/WEBHOOK_TOKEN');
  } else if (scheme === 'mailto' || scheme === 'mailtos') {
    const to = url.searchParams.get('to') ?? '';
    if (!to.includes('@') && !decodeURIComponent(url.username).includes('@') && !mailProvider(url.hostname))
      refuse('no address to send to', `${scheme}://user:pass@host[:port]?to=ADDR&from=ADDR`);
  }
}

/** ntfy://host/a/b: one URL per topic, as Apprise sends one message to each. */
function ntfyTopics(url: URL): URL[] {
  return url.pathname
    .split('/')
    .filter(Boolean)
    .map((topic) => {
      const one = new URL(url.href);
      one.pathname = `/${topic}`;
      return one;
    });
}

/** The port a scheme reaches when none is named. */
const DEFAULT_PORTS: Record<BuiltInScheme, string> = {
  ntfy: '80',
  ntfys: '443',
  json: '80',
  jsons: '443',
  mailto: '587',
  mailtos: '465',
  discord: '',
};

/**
 * Scheme, user, host, port, path and sorted query, without the password: the default port left out, and ntfy:// and
 * ntfys:// one family (a topic is the same topic over http or https).
 */
function identityOf(scheme: BuiltInScheme, url: URL): string {
  const family = scheme === 'ntfys' ? 'ntfy' : scheme;
  const port = url.port === DEFAULT_PORTS[scheme] ? '' : url.port;
  return spelt(family, url, port);
}

/** The identity lk gave a target before default ports and ntfy's schemes were made one (its ledger rows stay good). */
function formerIdentityOf(scheme: string, url: URL): string {
  return spelt(scheme, url, url.port);
}

function spelt(scheme: string, url: URL, port: string): string {
  const query = [...url.searchParams.entries()]
    .map(([name, value]) => [name.toLowerCase(), value] as const)
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1))
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
  const user = url.username === '' ? '' : `${url.username}@`;
  const path = url.pathname.replace(/\/+$/, '') || '';
  return `${scheme}://${user}${url.hostname.toLowerCase()}${port === '' ? '' : `:${port}`}${path}${query === '' ? '' : `?${query}`}`;
}

/** The targets of a run: each once (the same identity from --to and the config, or spelt two ways, is one target). */
export function parseTargets(raws: readonly string[], appriseThere: boolean): Target[] {
  const targets = new Map<string, Target>();
  for (const raw of raws) {
    for (const target of parseTarget(raw, appriseThere)) if (!targets.has(target.identity)) targets.set(target.identity, target);
  }
  return [...targets.values()];
}

/** The config's `notify` list: URLs separated by spaces or newlines. */
export function splitTargetList(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/**
 * Text about a target (a service's answer, an error) with what its masked URL hides taken out: the password, a user
 * standing alone (a token), every part of the path, a host that is no host name, and the query's values. For a URL
 * handed to apprise as written, every piece of it after the scheme.
 */
export function hideSecrets(text: string, target: Target): string {
  const { url } = target;
  const hidden = target.builtIn
    ? [url.password, ...url.pathname.split('/'), ...queryPairs(url).map(([, value]) => value)]
    : target.raw.slice(target.scheme.length + 3).split(/[/:@?&=#]/);
  if (target.builtIn && url.password === '') hidden.push(url.username);
  if (target.builtIn && !/[.:]/.test(url.hostname) && url.hostname !== 'localhost') hidden.push(url.hostname);
  const pieces = hidden
    .flatMap((piece) => [piece, decode(piece)])
    .filter((piece) => piece.length >= 3)
    .sort((a, b) => b.length - a.length);
  return pieces.reduce((out, piece) => out.split(piece).join(HIDDEN), text);
}
