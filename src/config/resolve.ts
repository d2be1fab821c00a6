import { keyFromFile } from './key-file.js';
import { AuthError, NotLoggedInError, UsageError } from '../util/errors.js';
import { assertTransportAllowed, normaliseBaseUrl } from './base-url.js';
import { configFilePath, DEFAULT_PROFILE, type StoredConfig, type StoredProfile } from './store.js';
import { BUILT_IN_DEFAULTS, parseByteSize, SETTINGS, type SettingName, type SettingValue } from './settings.js';
import { keyringGet, keyringName } from './keyring.js';
import { KEY_SOCKET_VARIABLE } from './key-socket-name.js';

export type KeySource = 'LK_API_KEY' | 'LK_API_KEY_FILE' | 'LK_KEY_SOCKET' | 'config' | 'keyring';

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

  /** The base URL as given and where it came from: flag, then env, then profile, then `lk config` default (docs/files.md). */
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

  /**
   * key(), with a key kept in the system keyring read from there (the keyring module loads only then), and one lent
   * by the lk that runs this extension read from its socket (src/config/key-socket.ts).
   */
  async keyWithKeyring(): Promise<ResolvedKey> {
    const resolved = this.key();
    if (resolved.source === 'LK_KEY_SOCKET') {
      const { borrowKey } = await import('./key-socket.js');
      return { ...resolved, key: await borrowKey(this.env[KEY_SOCKET_VARIABLE]!) };
    }
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

  /**
   * LK_API_KEY, then LK_API_KEY_FILE (or, in an extension, the socket of the lk that read it), then the profile's stored
   * key (a keyring one: see keyWithKeyring).
   */
  key(): ResolvedKey {
    const fromEnv = this.env.LK_API_KEY?.trim();
    if (fromEnv) return { key: fromEnv, source: 'LK_API_KEY', origin: 'LK_API_KEY' };
    const file = this.env.LK_API_KEY_FILE;
    if (file) return { ...keyFromFile(file), source: 'LK_API_KEY_FILE', origin: file };
    // Inside an extension or a shell alias of an lk that read LK_API_KEY_FILE: read by keyWithKeyring, from that lk.
    const socket = this.env[KEY_SOCKET_VARIABLE];
    if (socket) return { key: '', source: 'LK_KEY_SOCKET', origin: `the lk that runs this one (${KEY_SOCKET_VARIABLE})` };
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
