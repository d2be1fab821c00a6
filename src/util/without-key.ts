/**
 * Every variable that gives lk's key: the key, the file holding it, and the socket an extension's lk borrows it
 * through (LK_KEY_SOCKET, src/config/key-socket-name.ts).
 */
const KEY_VARIABLES = ['LK_API_KEY', 'LK_API_KEY_FILE', 'LK_KEY_SOCKET'] as const;

/** The environment for a program that is not lk (apprise, crontab, systemctl): the user's, without lk's key. */
export function withoutKey(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const name of KEY_VARIABLES) delete out[name];
  return out;
}
