import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { holdsExactly } from '../output/document.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { LkError, UsageError } from '../util/errors.js';
import type { SiteFile } from './site.js';

/**
 * lk publish's files put in place: each whole or not at all (a temporary file renamed over it), readable by a web
 * server (0644), and left untouched when its bytes are already there — so a git-backed site commits only what
 * changed and a static host's upload sends only that. What a previous run wrote and this one did not (a diary page
 * fewer) is removed, and nothing else: the files lk wrote are listed in MANIFEST. A folder holding files of its own
 * and no manifest is refused: lk never writes over what it did not write.
 */

export const MANIFEST = '.lk-publish.json';

export interface Published {
  written: string[];
  unchanged: number;
  removed: string[];
}

export async function publishInto(dir: string, files: AsyncIterable<SiteFile>): Promise<Published> {
  const before = previousFiles(dir);
  const written: string[] = [];
  const names = new Set<string>();
  let unchanged = 0;
  for await (const file of files) {
    names.add(file.name);
    const path = join(dir, ...file.name.split('/'));
    if (await holdsExactly(path, file.data)) {
      unchanged += 1;
      continue;
    }
    await mkdir(dirname(path), { recursive: true, mode: 0o755 });
    await writeFileAtomic(path, file.data, { mode: 0o644 });
    written.push(file.name);
  }
  const removed = before.filter((name) => !names.has(name));
  for (const name of removed) rmSync(join(dir, ...name.split('/')), { force: true });
  const manifest = `${JSON.stringify({ files: [...names].sort() }, null, 1)}\n`;
  if (!(await holdsExactly(join(dir, MANIFEST), manifest))) await writeFileAtomic(join(dir, MANIFEST), manifest, { mode: 0o644 });
  return { written, unchanged, removed };
}

/** The folder checked before anything is read: new, empty, or one lk publish wrote (else the refusal). */
export function checkPublishFolder(dir: string): void {
  previousFiles(dir);
}

/** The files the last run wrote into `dir`; none for a new or empty folder; refused for a folder lk did not fill. */
function previousFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  if (!statSync(dir).isDirectory()) throw new UsageError(`${dir} is not a folder`);
  const manifest = join(dir, MANIFEST);
  if (!existsSync(manifest)) {
    if (readdirSync(dir).length === 0) return [];
    throw new LkError(
      `${dir} holds files lk publish did not write (it has no ${MANIFEST})`,
      1,
      'Publish into an empty or new folder: lk publish replaces only what it wrote there before.',
    );
  }
  try {
    const files = (JSON.parse(readFileSync(manifest, 'utf8')) as { files?: unknown }).files;
    // Only plain relative names, as this module writes them: a hand-edited manifest removes nothing outside the folder.
    return Array.isArray(files)
      ? files.filter((name): name is string => typeof name === 'string' && /^(?!.*(^|\/)\.\.?(\/|$))[^\\]+$/.test(name))
      : [];
  } catch {
    return [];
  }
}
