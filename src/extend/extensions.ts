import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { findExecutable, isExecutableFile, pathFolders } from '../util/executable.js';

/**
 * Extensions, as gh has them: an executable named `lk-NAME` on PATH runs as `lk NAME …`. The first one on PATH wins,
 * as the shell would pick it, PATH's absolute folders only (src/util/executable.ts); a command of lk's always wins over an extension of its name (the caller checks).
 */
export const EXTENSION_PREFIX = 'lk-';

export interface Extension {
  readonly name: string;
  readonly path: string;
}

/** A name lk can run and complete: a plain word, as commands are. */
export function isExtensionName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(name);
}

export function findExtension(name: string, env: NodeJS.ProcessEnv): Extension | undefined {
  if (!isExtensionName(name)) return undefined;
  const path = findExecutable(`${EXTENSION_PREFIX}${name}`, env);
  return path === undefined ? undefined : { name, path };
}

/** Every extension on PATH, by name, each the one that would run. */
export function listExtensions(env: NodeJS.ProcessEnv): Extension[] {
  const found = new Map<string, Extension>();
  for (const extension of extensionsOnPath(env)) if (!found.has(extension.name)) found.set(extension.name, extension);
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Whether PATH holds any extension: `lk --help` asks at every start, and the first one found answers. */
export function hasExtensions(env: NodeJS.ProcessEnv): boolean {
  return !extensionsOnPath(env).next().done;
}

/**
 * The extensions in PATH's order, a name again when a later folder has it too. A folder already read is not read
 * again: on a merged-/usr system /bin is /usr/bin, a thousand names listed twice at every `lk --help`.
 */
function* extensionsOnPath(env: NodeJS.ProcessEnv): Generator<Extension, void, undefined> {
  const read = new Set<string>();
  for (const folder of pathFolders(env)) {
    let names: string[];
    try {
      const { dev, ino } = statSync(folder);
      if (read.has(`${dev}:${ino}`)) continue;
      read.add(`${dev}:${ino}`);
      names = readdirSync(folder);
    } catch {
      continue;
    }
    for (const file of names) {
      const name = file.slice(EXTENSION_PREFIX.length);
      if (!file.startsWith(EXTENSION_PREFIX) || !isExtensionName(name)) continue;
      const path = join(folder, file);
      if (isExecutableFile(path)) yield { name, path };
    }
  }
}

/**
 * The environment an extension (or a shell alias's sh) runs in: the user's own, with LK_PROFILE and LK_BASE_URL set
 * to what lk would use, and never a key lk read for it. An LK_API_KEY the user set is theirs to pass on (gh passes
 * GH_TOKEN likewise); a key from the config, the keyring or LK_API_KEY_FILE is not, and LK_API_KEY_FILE is removed,
 * since it would hand the extension the file. An extension that needs the key asks for it: `lk auth token`, which
 * reads the config or the keyring itself, and a key file's key from the lk that runs it (src/config/key-socket.ts).
 */
export function extensionEnv(env: NodeJS.ProcessEnv, instance: { profile: string; baseUrl: string | undefined }): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env, LK_PROFILE: instance.profile };
  delete out.LK_API_KEY_FILE;
  if (instance.baseUrl) out.LK_BASE_URL = instance.baseUrl;
  else delete out.LK_BASE_URL;
  return out;
}
