import { stat } from 'node:fs/promises';
import { writeFileAtomic } from './atomic-file.js';
import { LkError } from './errors.js';

/**
 * A file the user named (-o FILE): written whole or not at all. Replacing a file keeps its permissions (chmod 644
 * a calendar feed once for a web server); a new one is private, 0600, as what lk writes is personal data.
 */
export async function replaceFile(path: string, data: string | Buffer): Promise<void> {
  await failingAs(`cannot write ${path}`, async () => writeFileAtomic(path, data, { mode: await modeToKeep(path) }));
}

async function modeToKeep(path: string): Promise<number> {
  try {
    return (await stat(path)).mode & 0o777;
  } catch {
    return 0o600;
  }
}

/** File-system errors as one clear line (exit 1) instead of an "unexpected error". */
export async function failingAs<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof LkError) throw error;
    // "ENOSPC: no space left on device, write" → "no space left on device" (the temporary name is no one's business)
    const message = (error as Error).message;
    throw new LkError(`${what}: ${/^[A-Z]+: ([^,]+)/.exec(message)?.[1] ?? message}`);
  }
}
