import { isAbsolute } from 'node:path';
import { UsageError } from '../util/errors.js';
import { maskTargetUrl } from '../util/target-mask.js';
import { assertTransportAllowed, normaliseBaseUrl } from './base-url.js';
import { oneOf } from '../util/choice.js';
import { DATA_FORMATS } from '../util/data-formats.js';

/** The defaults `lk config` can store, each validated on set and when read back (the format: a listing's, util/data-formats.ts). */
export const LANGS = ['en', 'fr', 'it'] as const;
export const COLOR_MODES = ['auto', 'always', 'never'] as const;

export type SettingName =
  'format' | 'lang' | 'color' | 'base-url' | 'max-wait' | 'timeout' | 'csv-safe' | 'max-body' | 'pager' | 'ca-file' | 'notify';
export type SettingValue = string | number | boolean;

interface SettingSpec {
  describe: string;
  allowed: string;
  /** The values to offer on Tab, when there is a short list of them. */
  values?: readonly string[];
  parse(raw: string): SettingValue;
  /** A value that holds secrets, as lk config shows it (never whole): notify's URLs. */
  shown?: (value: SettingValue) => string;
}

export const SETTINGS: Record<SettingName, SettingSpec> = {
  format: {
    describe: 'output format',
    allowed: DATA_FORMATS.join(', '),
    values: DATA_FORMATS,
    parse: (raw) => oneOf('format', raw, DATA_FORMATS),
  },
  lang: { describe: 'language of film and series titles', allowed: LANGS.join(', '), values: LANGS, parse: (raw) => oneOf('lang', raw, LANGS) },
  color: {
    describe: 'when to colour output',
    allowed: COLOR_MODES.join(', '),
    values: COLOR_MODES,
    parse: (raw) => oneOf('color', raw, COLOR_MODES),
  },
  'base-url': {
    describe: 'instance address in front of /v1',
    allowed: 'an https URL (http on loopback)',
    // Refused here as every request would refuse it: plain http only to loopback (--allow-http is a login's choice).
    parse: (raw) => {
      const url = normaliseBaseUrl(raw);
      assertTransportAllowed(url, false);
      return url;
    },
  },
  'max-wait': {
    describe: 'longest single rate-limit wait, in seconds',
    allowed: 'seconds from 0 to 86400 (a day)',
    parse: (raw) => parseSeconds('max-wait', raw, 0, MAX_WAIT_SECONDS),
  },
  timeout: {
    describe: 'per-request timeout, in seconds',
    allowed: 'seconds from 0.1 to 3600',
    parse: (raw) => parseSeconds('timeout', raw, MIN_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS),
  },
  'max-body': {
    describe: 'largest response body accepted',
    allowed: 'a size from 1KiB to 512MiB, such as 64MiB or 100000000 (bytes)',
    parse: parseByteSize,
  },
  pager: {
    describe: 'pager for output taller than the terminal (after LK_PAGER, before PAGER)',
    allowed: "a command such as 'less -FRX' or 'most'; cat turns paging off",
    values: ['less -FRX', 'cat'],
    parse: (raw) => {
      if (raw.trim() === '' || /[\u0000-\u001f]/.test(raw)) throw new UsageError(`invalid pager "${raw}": expected a command such as 'less -FRX'`);
      return raw.trim();
    },
  },
  'ca-file': {
    describe: 'a PEM file of the certificate authority to trust for the instance (added to the usual ones)',
    allowed: 'an absolute path',
    parse: (raw) => {
      if (!isAbsolute(raw)) throw new UsageError(`invalid ca-file "${raw}": expected an absolute path`);
      return raw;
    },
  },
  notify: {
    describe: 'where lk notify sends: notification URLs (ntfy://, json://, mailto://, discord://, any apprise URL); never shown whole',
    allowed: 'URLs separated by spaces',
    parse: parseNotifyList,
    shown: (value) => maskedNotifyList(String(value)),
  },
  'csv-safe': {
    describe: "prefix ' to csv cells a spreadsheet would run as a formula",
    allowed: 'true, false',
    values: ['true', 'false'],
    parse: (raw) => oneOf('csv-safe', raw, ['true', 'false'] as const) === 'true',
  },
};

export function isSettingName(name: string): name is SettingName {
  return Object.hasOwn(SETTINGS, name);
}

export function assertSettingName(name: string): SettingName {
  if (!isSettingName(name)) {
    throw new UsageError(`unknown setting "${name}"`, `Settings: ${Object.keys(SETTINGS).join(', ')}.`);
  }
  return name;
}

/** Bounds that keep every timer within what setTimeout can hold (2^31-1 ms) and every value meaningful. */
export const MAX_WAIT_SECONDS = 86_400;
export const MIN_TIMEOUT_SECONDS = 0.1;
export const MAX_TIMEOUT_SECONDS = 3600;
export const MAX_BODY_BYTES = 512 * 1024 * 1024;

export function parseSeconds(what: string, raw: string, min: number, max: number): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < min || value > max) {
    throw new UsageError(`invalid ${what} "${raw}": expected a number of seconds from ${min} to ${max}`);
  }
  return value;
}

const BYTE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1000,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1000 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1000 ** 3,
  gib: 1024 ** 3,
};

/** `512MiB`, `2GiB`, `100000` (bytes). */
export function parseByteSize(raw: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(raw);
  const unit = match ? BYTE_UNITS[match[2]!.toLowerCase()] : undefined;
  const bytes = match && unit ? Math.floor(Number(match[1]) * unit) : NaN;
  if (!Number.isFinite(bytes) || bytes < 1024 || bytes > MAX_BODY_BYTES) {
    throw new UsageError(`invalid max-body "${raw}": expected a size from 1KiB to at most 512 MiB, such as 64MiB`);
  }
  return bytes;
}

/** What applies when nothing sets a value (the last step of precedence); `lk config list` shows it. */
export const BUILT_IN_DEFAULTS = {
  format: { value: null, text: 'table on a terminal, tsv in a pipe' },
  lang: { value: null, text: "the account's language" },
  color: { value: 'auto', text: 'auto' },
  'base-url': { value: null, text: 'none' },
  'max-wait': { value: 300, text: '300' },
  timeout: { value: 30, text: '30' },
  'csv-safe': { value: false, text: 'false' },
  'max-body': { value: 512 * 1024 * 1024, text: '512MiB' },
  pager: { value: null, text: 'PAGER, else less -FRX' },
  'ca-file': { value: null, text: 'none' },
  notify: { value: null, text: 'none' },
} as const satisfies Record<SettingName, { value: SettingValue | null; text: string }>;

/**
 * lk notify's config list: URLs separated by spaces, each with a scheme and something after it (lk config set then
 * checks each as lk notify does: src/commands/config.ts; a URL handed to apprise need not be one WHATWG parses, as
 * tgram://ID:TOKEN/chat is not). A URL may hold a password or a token: an error shows only its scheme.
 */
function parseNotifyList(raw: string): string {
  const urls = raw.split(/\s+/).filter(Boolean);
  if (urls.length === 0) throw new UsageError('invalid notify: expected one or more URLs such as ntfy://ntfy.sh/my-topic');
  for (const url of urls) {
    if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#\s]/.test(url)) {
      const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1];
      throw new UsageError(
        `invalid notify URL ${scheme === undefined ? '(not a URL)' : `${scheme}://***`}: expected scheme://host/…, such as ntfy://ntfy.sh/my-topic`,
      );
    }
  }
  return urls.join(' ');
}

/** Each URL as every notify command shows it (util/target-mask.ts): `ntfys://ntfy.sh/***`, none of a secret. */
export function maskedNotifyList(value: string): string {
  return value.split(/\s+/).filter(Boolean).map(maskTargetUrl).join(' ');
}
