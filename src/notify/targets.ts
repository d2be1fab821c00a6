import { createHash } from 'node:crypto';
import { UsageError } from '../util/errors.js';

/**
 * Where lk notify sends, named as Apprise names a notification target (a URL whose scheme is the service). lk sends
 * the schemes of BUILT_IN itself; any other goes to the `apprise` command. A target URL carries secrets (a password, a
 * webhook's token): what is shown of it is `masked`, and what the mirror records of it is a hash of its identity.
 */

/** The schemes lk sends itself, each with its sender (./send/). */
export const BUILT_IN = ['ntfy', 'ntfys', 'json', 'jsons', 'mailto', 'mailtos', 'discord'] as const;
export type BuiltInScheme = (typeof BUILT_IN)[number];

export interface Target {
  /** The URL as given: only a sender reads it. */
  readonly url: URL;
  /** The scheme without its colon, lower case. */
  readonly scheme: string;
  /** A scheme lk sends itself; undefined: handed to `apprise`. */
  readonly builtIn: BuiltInScheme | undefined;
  /** The URL without its password, normalised: the same target whatever its password or the order of its query. */
  readonly identity: string;
  /** What the mirror records of the target: a hash of its identity (the mirror holds no token). */
  readonly id: string;
  /** What is shown of it: the password and every token replaced by ***. */
  readonly masked: string;
}

const HIDDEN = '***';

function isBuiltIn(scheme: string): scheme is BuiltInScheme {
  return (BUILT_IN as readonly string[]).includes(scheme);
}

/**
 * A target from its URL, or exit 2 naming what is wrong (the URL itself is never repeated: it may hold a secret).
 * `appriseThere` says whether a scheme lk does not know can be handed to the apprise command.
 */
export function parseTarget(raw: string, appriseThere: boolean): Target {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(raw)?.[1]?.toLowerCase();
  if (scheme === undefined || !URL.canParse(raw)) {
    throw new UsageError(`invalid notify URL ${maskRaw(raw)}: expected scheme://…, such as ntfy://ntfy.sh/my-topic`, KNOWN_HINT);
  }
  const url = new URL(raw);
  const builtIn = isBuiltIn(scheme) ? scheme : undefined;
  if (!builtIn && !appriseThere) {
    throw new UsageError(
      `lk cannot send to ${scheme}:// URLs itself, and no apprise command is on PATH to hand them to`,
      `${KNOWN_HINT} Other services: install apprise (apt-get install apprise, or pipx install apprise).`,
    );
  }
  if (builtIn) checkBuiltIn(builtIn, url);
  const identity = identityOf(scheme, url);
  return {
    url,
    scheme,
    builtIn,
    identity,
    id: createHash('sha256').update(identity).digest('hex').slice(0, 32),
    masked: maskUrl(scheme, url),
  };
}

export const KNOWN_HINT = `lk sends to ${BUILT_IN.map((scheme) => `${scheme}://`).join(', ')} itself; any other scheme goes to the apprise command.`;

/** What each built-in scheme needs, checked before anything is read or sent. */
function checkBuiltIn(scheme: BuiltInScheme, url: URL): void {
  const path = url.pathname.split('/').filter(Boolean);
  const masked = maskUrl(scheme, url);
  const refuse = (why: string, form: string) => {
    throw new UsageError(`invalid notify URL ${masked}: ${why}`, `Expected ${form}.`);
  };
  if (url.hostname === '') refuse('no host', `${scheme}://host/…`);
  if (scheme === 'ntfy' || scheme === 'ntfys') {
    if (path.length !== 1) refuse('expected one topic after the host', `${scheme}://[user:pass@]host[:port]/topic`);
  } else if (scheme === 'discord') {
    if (path.length !== 1) refuse('expected the webhook id and token', 'discord://WEBHOOK_ID/WEBHOOK_TOKEN');
  } else if (scheme === 'mailto' || scheme === 'mailtos') {
    const to = url.searchParams.get('to') ?? '';
    if (!to.includes('@') && !decodeURIComponent(url.username).includes('@'))
      refuse('no address to send to', `${scheme}://user:pass@host[:port]?to=ADDR&from=ADDR`);
  }
}

/** Scheme, user, host, port, path and sorted query: the URL without its password, spelt one way. */
function identityOf(scheme: string, url: URL): string {
  const query = [...url.searchParams.entries()]
    .map(([name, value]) => [name.toLowerCase(), value] as const)
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1))
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
  const user = url.username === '' ? '' : `${url.username}@`;
  const port = url.port === '' ? '' : `:${url.port}`;
  const path = url.pathname.replace(/\/+$/, '') || '';
  return `${scheme}://${user}${url.hostname.toLowerCase()}${port}${path}${query === '' ? '' : `?${query}`}`;
}

/**
 * The URL as shown: the password, every query value but mailto's addresses, and discord's token (the last part of its
 * path) hidden; for a scheme handed to apprise, whose URLs put tokens anywhere, every path part and a host that is no
 * host name hidden too.
 */
export function maskUrl(scheme: string, url: URL): string {
  const user = url.username === '' ? '' : `${url.username}${url.password === '' ? '' : `:${HIDDEN}`}@`;
  const port = url.port === '' ? '' : `:${url.port}`;
  let parts = url.pathname.split('/');
  let host = url.hostname;
  if (scheme === 'discord') {
    parts = parts.map((part, at) => (at === parts.length - 1 && part !== '' ? HIDDEN : part));
  } else if (!isBuiltIn(scheme)) {
    parts = parts.map((part) => (part === '' ? part : HIDDEN));
    if (!/[.:]/.test(host) && host !== 'localhost') host = HIDDEN;
  }
  // A query may carry a token (a header, a key): only the addresses of mailto are shown.
  const shown = [...url.searchParams.entries()].map(([name, value]) => `${name}=${/^(to|from)$/i.test(name) ? value : HIDDEN}`);
  const query = shown.length === 0 ? '' : `?${shown.join('&')}`;
  return `${scheme}://${user}${host}${port}${parts.join('/')}${query}`;
}

/** A string that is not even a URL, shown without what could be a secret: its scheme, if any, and nothing else. */
function maskRaw(raw: string): string {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(raw)?.[1];
  return scheme === undefined ? '(not a URL)' : `${scheme}://${HIDDEN}`;
}

/** The targets of a run: each URL once (the same identity from --to and the config is one target). */
export function parseTargets(raws: readonly string[], appriseThere: boolean): Target[] {
  const targets = new Map<string, Target>();
  for (const raw of raws) {
    const target = parseTarget(raw, appriseThere);
    if (!targets.has(target.identity)) targets.set(target.identity, target);
  }
  return [...targets.values()];
}

/** The config's `notify` list: URLs separated by spaces or newlines. */
export function splitTargetList(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/**
 * Text about a target (a service's answer, an error) with its secrets taken out: the password and query values, and
 * the parts a masked URL hides (discord's token; for a scheme handed to apprise, the path and a host that is no name).
 */
export function hideSecrets(text: string, target: Target): string {
  const { url } = target;
  const path = url.pathname.split('/').filter(Boolean);
  const hidden = [url.password, ...url.searchParams.values()];
  if (target.scheme === 'discord') hidden.push(path.at(-1) ?? '');
  if (!target.builtIn) hidden.push(...path, url.username, ...(/[.:]/.test(url.hostname) ? [] : [url.hostname]));
  const pieces = hidden
    .flatMap((piece) => [piece, safeDecode(piece)])
    .filter((piece) => piece.length >= 3 && !/^(to|from)$/.test(piece))
    .sort((a, b) => b.length - a.length);
  return pieces.reduce((out, piece) => out.split(piece).join(HIDDEN), text);
}

function safeDecode(piece: string): string {
  try {
    return decodeURIComponent(piece);
  } catch {
    return piece;
  }
}
