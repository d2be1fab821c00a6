import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { LkError } from '../util/errors.js';
import { folderProblem } from '../util/private-folder.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { safeFileName } from './rotation.js';
import { sha256Hex } from '../util/hash.js';

/**
 * The export cache, per instance and account, under the cache folder:
 *
 *   exports/<instance hash>/accounts/<account>/export.json   the body exactly as the server sent it
 *   exports/<instance hash>/accounts/<account>/meta.json     fetchedAt, instance, account, bytes, sha256
 *   exports/<instance hash>/accounts/<account>/lock          held while one process decides and fetches
 *
 * The metadata's length and digest are checked on every read, so a truncated or altered body is never served.
 */

export interface CachedExport {
  text: string;
  /** Epoch ms when this client received it. */
  fetchedAt: number;
}

export type CacheLookup = { state: 'missing' } | { state: 'damaged'; reason: string } | { state: 'ok'; entry: CachedExport };

interface ExportMeta {
  fetchedAt: string;
  instance: string;
  account: string;
  bytes: number;
  sha256: string;
}

export class ExportCache {
  readonly instanceDir: string;

  constructor(
    private readonly cacheDir: string,
    private readonly instance: string,
  ) {
    this.instanceDir = join(cacheDir, 'exports', sha256Hex(instance).slice(0, 16));
  }

  accountDir(account: string): string {
    return join(this.instanceDir, 'accounts', safeFileName(account));
  }

  lockPath(account: string): string {
    return join(this.accountDir(account), 'lock');
  }

  /**
   * Creates the account's folder, then checks every folder on the way from the cache folder down: each must be a
   * real folder (no planted symlink), ours, that others cannot write into. Throws when one is not.
   */
  async prepare(account: string): Promise<void> {
    const dir = this.accountDir(account);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    for (let level = dir; level.length > this.cacheDir.length; level = dirname(level)) {
      const problem = folderProblem(level, false);
      if (problem) throw new LkError(problem);
    }
  }

  async read(account: string): Promise<CacheLookup> {
    const dir = this.accountDir(account);
    const metaText = await readIfPresent(join(dir, 'meta.json'));
    const body = await readIfPresent(join(dir, 'export.json'));
    if (metaText === undefined && body === undefined) return { state: 'missing' };
    if (metaText === undefined) return { state: 'damaged', reason: 'its metadata is missing' };
    if (body === undefined) return { state: 'damaged', reason: 'the export file is missing' };
    let meta: Partial<ExportMeta>;
    try {
      meta = JSON.parse(metaText.toString('utf8')) as Partial<ExportMeta>;
    } catch {
      return { state: 'damaged', reason: 'its metadata is not JSON' };
    }
    const fetchedAt = Date.parse(String(meta.fetchedAt));
    if (Number.isNaN(fetchedAt) || meta.instance !== this.instance || meta.account !== account) {
      return { state: 'damaged', reason: 'its metadata does not match' };
    }
    if (body.length !== meta.bytes) return { state: 'damaged', reason: `it holds ${body.length} bytes of ${meta.bytes}` };
    if (sha256Hex(body) !== meta.sha256) return { state: 'damaged', reason: 'its checksum does not match' };
    return { state: 'ok', entry: { text: body.toString('utf8'), fetchedAt } };
  }

  /** Body first, then the metadata that vouches for it: a crash in between leaves a mismatch, read as damaged. */
  async write(account: string, text: string, fetchedAt: number): Promise<void> {
    await this.prepare(account);
    const dir = this.accountDir(account);
    const body = Buffer.from(text, 'utf8');
    const meta: ExportMeta = {
      fetchedAt: new Date(fetchedAt).toISOString(),
      instance: this.instance,
      account,
      bytes: body.length,
      sha256: sha256Hex(body),
    };
    await writeFileAtomic(join(dir, 'export.json'), body);
    await writeFileAtomic(join(dir, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
  }
}

async function readIfPresent(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
