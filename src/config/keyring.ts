import type { AsyncEntry } from '@napi-rs/keyring';

/**
 * The system keyring (Secret Service, macOS Keychain, Windows Credential Manager) through @napi-rs/keyring, loaded
 * only when a key is stored or read there. Every failure is an answer ("no keyring here"), never a crash: lk then
 * keeps the key in its 0600 config file, like gh.
 */

/** One entry per profile under this service name. */
export const KEYRING_SERVICE = 'lk';
/** A locked keyring can wait for a password prompt no one sees: give up and say so. */
const KEYRING_TIMEOUT_MS = 5000;

export function keyringName(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return 'the macOS Keychain';
  if (platform === 'win32') return 'the Windows Credential Manager';
  return 'the system keyring (Secret Service)';
}

/**
 * Whether a keyring may answer here. On Linux the Secret Service lives on the session bus: with no bus address (a
 * container, ssh, cron) there is none, and asking would make libdbus try to launch one.
 */
export function keyringMayAnswer(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DBUS_SESSION_BUS_ADDRESS);
}

export class KeyringUnavailable extends Error {}

type KeyringModule = { AsyncEntry: typeof AsyncEntry };

async function withEntry<T>(profile: string, use: (entry: AsyncEntry, signal: AbortSignal) => Promise<T>): Promise<T> {
  let module: KeyringModule;
  try {
    // The OS keyring's native addon, left in node_modules: only a run that reads or stores a key there.
    module = await import('@napi-rs/keyring');
  } catch (error) {
    throw new KeyringUnavailable(`the keyring module did not load (${(error as Error).message.split('\n')[0]})`);
  }
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new KeyringUnavailable(`no answer within ${KEYRING_TIMEOUT_MS / 1000} s (is it locked?)`));
    }, KEYRING_TIMEOUT_MS);
  });
  try {
    const entry = new module.AsyncEntry(KEYRING_SERVICE, profile);
    return await Promise.race([use(entry, controller.signal), timeout]);
  } catch (error) {
    if (error instanceof KeyringUnavailable) throw error;
    throw new KeyringUnavailable(
      String((error as Error).message ?? error)
        .split('\n')[0]!
        .trim(),
    );
  } finally {
    clearTimeout(timer);
  }
}

export function keyringGet(profile: string): Promise<string | null> {
  return withEntry(profile, (entry, signal) => entry.getPassword(signal));
}

export function keyringSet(profile: string, key: string): Promise<void> {
  return withEntry(profile, (entry, signal) => entry.setPassword(key, signal));
}

export function keyringDelete(profile: string): Promise<boolean> {
  return withEntry(profile, (entry, signal) => entry.deleteCredential(signal));
}
