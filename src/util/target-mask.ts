/**
 * A notification target's URL as lk shows it, everywhere (lk config get notify, lk notify, lk serve --notify): what
 * tells targets apart, none of what is secret. Apprise's URLs put tokens anywhere (the path: an ntfy topic, Discord's
 * webhook token; the user part: ntfy's tk_ token, Pushover's user key; the host: Telegram's bot token; the query), so
 * only the scheme, a host name, a port, a login followed by its password, and the query's names are shown:
 * `ntfys://ntfy.sh/***`, `mailto://me:***@mail.example.org?to=***`, `discord://***\/***`.
 */
export const HIDDEN = '***';

export function maskTargetUrl(raw: string): string {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(raw)?.[1];
  if (!URL.canParse(raw)) return scheme === undefined ? '(not a URL)' : `${scheme.toLowerCase()}://${HIDDEN}`;
  const url = new URL(raw);
  // A user with a password is a login (shown); a user alone is a token standing there (hidden).
  const user = url.username === '' ? '' : url.password === '' ? `${HIDDEN}@` : `${url.username}:${HIDDEN}@`;
  const host = /[.:]/.test(url.hostname) || url.hostname === 'localhost' ? url.hostname : url.hostname === '' ? '' : HIDDEN;
  const port = url.port === '' ? '' : `:${url.port}`;
  const path = /^\/*$/.test(url.pathname) ? '' : `/${HIDDEN}`;
  const names = [...new Set(queryPairs(url).map(([name]) => name))];
  const query = names.length === 0 ? '' : `?${names.map((name) => `${name.replace(/[^\w+\-:.~]/g, encodeURIComponent)}=${HIDDEN}`).join('&')}`;
  return `${url.protocol}//${user}${host}${port}${path}${query}`;
}

/**
 * The query's pairs as Apprise reads them: percent-decoded, but a `+` kept as itself (json://'s `+Header=` names a
 * header; URLSearchParams would read a space).
 */
export function queryPairs(url: URL): Array<[string, string]> {
  return url.search
    .slice(1)
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      return [decode(at < 0 ? pair : pair.slice(0, at)), decode(at < 0 ? '' : pair.slice(at + 1))];
    });
}

/** A percent-encoded piece decoded, or as it is when it is no valid encoding. */
export function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
