import { accountNames, keyExpiresAtOf, keyNameOf, keyPrefixOf, keyScopesOf, rateLimitFiguresOf, rateLimitOf } from '../../items/account.js';
import { formatCount, formatDuration } from '../../util/units.js';
import { detailedDate } from '../formats/dates.js';
import { sanitizeText } from '../terminal/sanitize.js';
import { displayWidth, padToWidth } from '../terminal/width.js';
import type { OutputOptions } from '../formats/writer.js';

/**
 * `lk whoami` on a terminal: the account, the key and the rate limit as a person reads them, every scope in full
 * (wrapped, never cut). Other formats get GET /v1/me exactly as the server sent it (layouts.ts, before loading this).
 * docs/api.md fixes only that the answer reports the account, the key and the rate limit: every field is read loosely, and
 * a missing one says so.
 */
export async function writeAccount(me: unknown, options: OutputOptions): Promise<void> {
  const { colors, now } = options.display;
  const text = (value: unknown) => sanitizeText(value === undefined || value === null ? '' : String(value));
  const { shown: username, displayName } = accountNames(me);
  const keyName = keyNameOf(me);
  const prefix = keyPrefixOf(me);
  const scopes = keyScopesOf(me);
  const rows: Array<[string, string]> = [
    ['Account', `${text(username)}${displayName && displayName !== username ? colors.dim(` (${text(displayName)})`) : ''}`],
    ['Key', [keyName, prefix ? `${text(prefix)}…` : undefined].filter(Boolean).map(text).join(' · ')],
    ['Scopes', Array.isArray(scopes) ? scopes.map(text).join(', ') : text(scopes)],
    ['Expires', expiryText(keyExpiresAtOf(me), now)],
    ['Rate limit', rateLimitText(rateLimitOf(me))],
  ];
  const labelWidth = Math.max(...rows.map(([label]) => label.length)) + 2;
  const width = Math.max(options.io.columns - labelWidth, 20);
  const lines = rows.map(([label, value]) => {
    const wrapped = wrapList(value, width);
    return wrapped.map((line, i) => `${i === 0 ? colors.bold(padToWidth(label, labelWidth)) : ' '.repeat(labelWidth)}${line}`).join('\n');
  });
  await options.io.write(`${lines.join('\n')}\n`);
}

/** "never" when the server says null, "unknown" when it says nothing: the words `lk auth status` uses. */
export function expiryText(expiresAt: unknown, now: number): string {
  if (expiresAt === null) return 'never';
  if (expiresAt === undefined || expiresAt === '') return 'unknown (not reported by the server)';
  return detailedDate(expiresAt, now);
}

/** "58 of 60 requests left this minute, resets in 55s", from {limit, remaining, reset} or their other spellings. */
export function rateLimitText(rateLimit: unknown): string {
  const { limit, remaining, reset } = rateLimitFiguresOf(rateLimit);
  if (typeof limit !== 'number') return 'unknown (not reported by the server)';
  const budget =
    typeof remaining === 'number'
      ? `${formatCount(remaining)} of ${formatCount(limit)} requests left this minute`
      : `${formatCount(limit)} requests a minute`;
  return typeof reset === 'number' ? `${budget}, resets in ${formatDuration(reset)}` : budget;
}

/** A value over several lines, breaking at blanks only (after a list's commas), so that no word or scope is cut. */
function wrapList(value: string, width: number): string[] {
  if (displayWidth(value) <= width) return [value];
  const lines: string[] = [];
  let line = '';
  for (const part of value.split(/(?<= )/)) {
    if (line && displayWidth(line + part.trimEnd()) > width) {
      lines.push(line.trimEnd());
      line = '';
    }
    line += part;
  }
  if (line) lines.push(line.trimEnd());
  return lines;
}
