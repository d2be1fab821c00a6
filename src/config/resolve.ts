import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { MAX_KEY_INPUT_BYTES } from './key.js';
import { AuthError, NotLoggedInError, UsageError } from '../util/errors.js';
import { assertTransportAllowed, normaliseBaseUrl } from './base-url.js';
import { configFilePath, DEFAULT_PROFILE, type StoredConfig, type StoredProfile } from './store.js';
import { BUILT_IN_DEFAULTS, parseByteSize, SETTINGS, type SettingName, type SettingValue } from './settings.js';
import { readableByOthersWarning } from '../util/file-kind.js';
import { keyringGet, keyringName } from './keyring.js';

export type KeySource = 'LK_API_KEY' | 'LK_API_KEY_FILE' | 'config' | 'keyring';

export interface ResolvedKey {
  key: string;
  source: KeySource;
  /** Where it came from, for `auth status`: the variable, the file's path, or the keyring. */
  origin: string;
  /** Something a person should hear about where the key lives (a key file others can read). */
  warning?: string;
}

export interface ResolvedInstance {
  profile: string;
  baseUrl: string;
  baseUrlSource: 'flag' | 'LK_BASE_URL' | 'profile' | 'config';
  allowHttp: boolean;
}

/** Flag values the user actually typed (undefined when absent). */
export interface SettingFlags {
  profile?: string | undefined;
  baseUrl?: string | undefined;
  lang?: string | undefined;
  maxWait?: string | undefined;
  timeout?: string | undefined;
  csvSafe?: boolean | undefined;
  cacert?: string | undefined;
}

export class Settings {
  readonly profileName: string;
  constructor(
    readonly stored: StoredConfig,
    readonly flags: SettingFlags,
    readonly env: NodeJS.ProcessEnv,
    readonly configDir: string,
  ) {
    const switched = typeof stored.defaultProfile === 'string' && stored.defaultProfile !== '' ? stored.defaultProfile : undefined;
    this.profileName = flags.profile ?? (env.LK_PROFILE || switched || DEFAULT_PROFILE);
  }

  get profile(): StoredProfile | undefined {
    return this.stored.profiles?.[this.profileName];
  }

  /** A stored `lk config` default, re-validated: a hand-edited file gets the same checks as `config set`. */
  storedDefault(name: SettingName): SettingValue | undefined {
    const value = this.stored.defaults?.[name];
    if (value === undefined) return undefined;
    try {
      return SETTINGS[name].parse(String(value));
    } catch (error) {
      throw new UsageError(`${configFilePath(this.configDir)}: ${(error as Error).message}`, `Fix it with \`lk config set ${name} VALUE\`.`);
    }
  }

  /** The base URL as given and where it came from: flag, then env, then profile, then `lk config` default (README, Files and environment). */
  baseUrlChoice(): { raw: string | undefined; source: ResolvedInstance['baseUrlSource'] } {
    if (this.flags.baseUrl !== undefined) return { raw: this.flags.baseUrl, source: 'flag' };
    // An empty LK_BASE_URL counts as unset.
    if (this.env.LK_BASE_URL) return { raw: this.env.LK_BASE_URL, source: 'LK_BASE_URL' };
    if (this.profile?.baseUrl) return { raw: this.profile.baseUrl, source: 'profile' };
    return { raw: this.storedDefault('base-url') as string | undefined, source: 'config' };
  }

  instance(): ResolvedInstance {
    const profile = this.profile;
    const allowHttp = Boolean(profile?.allowHttp);
    const { raw, source } = this.baseUrlChoice();
    if (!raw) {
      throw new UsageError('no instance configured', 'Log in with `lk auth login --base-url https://your.instance`, or set LK_BASE_URL.');
    }
    const baseUrl = normaliseBaseUrl(raw);
    // --allow-http belongs to the saved profile's instance, not to whatever URL a flag or env names.
    const httpAllowedHere = allowHttp && profile?.baseUrl !== undefined && normaliseBaseUrl(profile.baseUrl) === baseUrl;
    assertTransportAllowed(baseUrl, httpAllowedHere);
    return { profile: this.profileName, baseUrl, baseUrlSource: source, allowHttp: httpAllowedHere };
  }

  /** key(), with a key kept in the system keyring read from there (the keyring module loads only then). */
  async keyWithKeyring(): Promise<ResolvedKey> {
    const resolved = this.key();
    if (resolved.source !== 'keyring') return resolved;
    let key: string | null;
    try {
      key = await keyringGet(this.profileName);
    } catch (error) {
      throw new AuthError(
        `the key of profile "${this.profileName}" is in ${keyringName()}, which did not answer: ${(error as Error).message}`,
        'Unlock the keyring, or log in again with `lk auth login --insecure-storage` to keep the key in the config file.',
      );
    }
    if (!key) throw new AuthError(`the key of profile "${this.profileName}" is no longer in ${keyringName()}`, 'Log in again: `lk auth login`.');
    return { key, source: 'keyring', origin: keyringName() };
  }

  /** LK_API_KEY, then LK_API_KEY_FILE, then the profile's stored key (a keyring one: see keyWithKeyring). */
  key(): ResolvedKey {
    const fromEnv = this.env.LK_API_KEY?.trim();
    if (fromEnv) return { key: fromEnv, source: 'LK_API_KEY', origin: 'LK_API_KEY' };
    const file = this.env.LK_API_KEY_FILE;
    if (file) {
      const { text, mode } = readKeyFile(file);
      const key = text.trim();
      if (!key) throw new AuthError(`LK_API_KEY_FILE ${file} is empty`);
      const warning = readableByOthersWarning('the key file', file, mode);
      return { key, source: 'LK_API_KEY_FILE', origin: file, ...(warning ? { warning } : {}) };
    }
    const stored = this.profile?.key;
    if (stored) return { key: stored, source: 'config', origin: configFilePath(this.configDir) };
    // Read by Context.key(), asynchronously and only when a request needs it.
    if (this.profile?.keyring) return { key: '', source: 'keyring', origin: 'keyring' };
    throw new NotLoggedInError(
      `not logged in (profile "${this.profileName}")`,
      'Run `lk auth login --base-url https://your.instance`, or set LK_API_KEY.',
    );
  }

  format(): string | undefined {
    return this.storedDefault('format') as string | undefined;
  }

  lang(): string | undefined {
    return this.flags.lang ?? (this.storedDefault('lang') as string | undefined);
  }

  color(): 'auto' | 'always' | 'never' {
    return (this.storedDefault('color') as 'auto' | 'always' | 'never' | undefined) ?? BUILT_IN_DEFAULTS.color.value;
  }

  maxWaitSeconds(): number {
    if (this.flags.maxWait !== undefined) return SETTINGS['max-wait'].parse(this.flags.maxWait) as number;
    return (this.storedDefault('max-wait') as number | undefined) ?? BUILT_IN_DEFAULTS['max-wait'].value;
  }

  timeoutSeconds(): number {
    if (this.flags.timeout !== undefined) return SETTINGS.timeout.parse(this.flags.timeout) as number;
    return (this.storedDefault('timeout') as number | undefined) ?? BUILT_IN_DEFAULTS.timeout.value;
  }

  /** LK_MAX_BODY, else the `lk config` default, else 512 MiB. */
  maxBodyBytes(): number {
    if (this.env.LK_MAX_BODY) return parseByteSize(this.env.LK_MAX_BODY);
    return (this.storedDefault('max-body') as number | undefined) ?? BUILT_IN_DEFAULTS['max-body'].value;
  }

  /** The `lk config` pager; LK_PAGER and PAGER are weighed around it in output/terminal/pager.ts. */
  pager(): string | undefined {
    return this.storedDefault('pager') as string | undefined;
  }

  /** --cacert, else LK_CA_FILE, else the `lk config` default: a CA to trust besides Node's own. */
  caFile(): { file: string; source: '--cacert' | 'LK_CA_FILE' | 'config' } | undefined {
    if (this.flags.cacert !== undefined) return { file: this.flags.cacert, source: '--cacert' };
    if (this.env.LK_CA_FILE) return { file: this.env.LK_CA_FILE, source: 'LK_CA_FILE' };
    const stored = this.storedDefault('ca-file') as string | undefined;
    return stored ? { file: stored, source: 'config' } : undefined;
  }

  csvSafe(): boolean {
    return this.flags.csvSafe ?? (this.storedDefault('csv-safe') as boolean | undefined) ?? BUILT_IN_DEFAULTS['csv-safe'].value;
  }
}

/**
 * LK_API_KEY_FILE, read up to a few KB: a key is 52 bytes, and a path to something endless (a device, a FIFO, a log)
 * must fail at once instead of filling memory.
 */
/** "cannot read the key file that LK_API_KEY_FILE names, /run/secrets/lk: no such file" (exit 3), not a bare ENOENT. */
function keyFileError(file: string, error: unknown): AuthError {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a folder' : (code ?? 'unreadable');
  return new AuthError(
    `cannot read the key file that LK_API_KEY_FILE names, ${file}: ${why}`,
    'Point LK_API_KEY_FILE at a file holding only the key, or unset it.',
  );
}

/** The file's text, and its permission bits (from the same open file: no race with a chmod in between). */
function readKeyFile(file: string): { text: string; mode: number } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw keyFileError(file, error);
  }
  try {
    const buffer = Buffer.alloc(MAX_KEY_INPUT_BYTES + 1);
    let size = 0;
    while (size < buffer.length) {
      const read = readSync(fd, buffer, size, buffer.length - size, null);
      if (read === 0) break;
      size += read;
    }
    if (size > MAX_KEY_INPUT_BYTES)
      throw new AuthError(`LK_API_KEY_FILE ${file} holds more than ${MAX_KEY_INPUT_BYTES / 1024} KiB: that is not a key file`);
    return { text: buffer.subarray(0, size).toString('utf8'), mode: fstatSync(fd).mode & 0o777 };
  } catch (error) {
    if (error instanceof AuthError) throw error;
    throw keyFileError(file, error);
  } finally {
    closeSync(fd);
  }
}
