import { createReadStream } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { LkError } from '../util/errors.js';
import { folderProblem } from '../util/private-folder.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { safeFileName } from './rotation.js';
import { sha256Hex } from '../util/hash.js';
import { createHash } from 'node:crypto';

/**
 * The export cache, per instance and account, under the cache folder:
 *
 *   exports/<instance hash>/accounts/<account>/export.json   the body exactly as the server sent it
 *   exports/<instance hash>/accounts/<account>/meta.json     fetchedAt, instance, account, bytes, sha256
 *   exports/<instance hash>/accounts/<account>/lock          held while one process decides and fetches
 *   exports/<instance hash>/accounts/<account>/refused.json  until when the server refused a new export (its 429)
 *
 * The metadata's length and digest are checked on every read, so a truncated or altered body is never served, and
 * every folder on the way is checked before anything is read, so a body planted where others can write is never
 * served either: lk export, lk convert and lk sync all read the cache through this class, and nothing else does.
 */

export interface CachedExport {
  text: string;
  /** Epoch ms when this client received it. */
  fetchedAt: number;
}

export type CacheLookup<Entry = CachedExport> =
  | { state: 'missing' }
  | { state: 'damaged'; reason: string }
  /** A folder on the way is not private: whatever it holds may be someone else's. */
  | { state: 'untrusted'; reason: string }
  | { state: 'ok'; entry: Entry };

export interface ExportMeta {
  fetchedAt: string;
  instance: string;
  account: string;
  bytes: number;
  sha256: string;
}

/** The export cache of an instance in the cache folder Context found usable; undefined (none) when it found none. */
export function exportCacheIn(cacheDir: string | undefined, instance: string): ExportCache | undefined {
  return cacheDir === undefined ? undefined : new ExportCache(cacheDir, instance);
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
   * What makes the account's folder untrustworthy, or undefined: the cache folder (followed, if the user made it a
   * link) and each folder lk made below it (real folders, no planted link) must be ours and closed to others.
   */
  trustProblem(account: string): string | undefined {
    const levels: string[] = [];
    for (let level = this.accountDir(account); level.length > this.cacheDir.length; level = dirname(level)) levels.unshift(level);
    const mine = levels.map((level) => folderProblem(level, false));
    return folderProblem(this.cacheDir) ?? mine.find((problem) => problem !== undefined);
  }

  /** Creates the account's folder, then checks the folders on the way (trustProblem). Throws when one is not private. */
  async prepare(account: string): Promise<void> {
    await mkdir(this.accountDir(account), { recursive: true, mode: 0o700 });
    const problem = this.trustProblem(account);
    if (problem) throw new LkError(problem);
  }

  /** The metadata alone, checked to be this instance's and account's (the body is checked as it is read). */
  async metadata(account: string): Promise<CacheLookup<ExportMeta & { fetchedAtMs: number }>> {
    const problem = this.trustProblem(account);
    if (problem) return { state: 'untrusted', reason: problem };
    const metaText = await readIfPresent(join(this.accountDir(account), 'meta.json'));
    if (metaText === undefined) return { state: 'missing' };
    let meta: Partial<ExportMeta>;
    try {
      meta = JSON.parse(metaText.toString('utf8')) as Partial<ExportMeta>;
    } catch {
      return { state: 'damaged', reason: 'its metadata is not JSON' };
    }
    const fetchedAtMs = Date.parse(String(meta.fetchedAt));
    if (Number.isNaN(fetchedAtMs) || meta.instance !== this.instance || meta.account !== account) {
      return { state: 'damaged', reason: 'its metadata does not match' };
    }
    if (!Number.isSafeInteger(meta.bytes) || typeof meta.sha256 !== 'string') return { state: 'damaged', reason: 'its metadata does not match' };
    return { state: 'ok', entry: { ...(meta as ExportMeta), fetchedAtMs } };
  }

  /** The whole body, checked against its metadata. */
  async read(account: string): Promise<CacheLookup> {
    const lookup = await this.metadata(account);
    const body = lookup.state === 'untrusted' ? undefined : await readIfPresent(join(this.accountDir(account), 'export.json'));
    if (lookup.state === 'missing') return body === undefined ? lookup : { state: 'damaged', reason: 'its metadata is missing' };
    if (lookup.state !== 'ok') return lookup;
    const meta = lookup.entry;
    if (body === undefined) return { state: 'damaged', reason: 'the export file is missing' };
    if (body.length !== meta.bytes) return { state: 'damaged', reason: `it holds ${body.length} bytes of ${meta.bytes}` };
    if (sha256Hex(body) !== meta.sha256) return { state: 'damaged', reason: 'its checksum does not match' };
    return { state: 'ok', entry: { text: body.toString('utf8'), fetchedAt: meta.fetchedAtMs } };
  }

  /**
   * The body chunk by chunk, without holding it whole (a mirror's sync of a 120 MB export): the length and digest
   * are compared with `meta` once the last chunk is read, and a mismatch throws DamagedExport then, so a reader
   * must treat what it took as provisional until the loop ends (the sync does: a savepoint).
   */
  async *stream(account: string, meta: ExportMeta): AsyncGenerator<Buffer> {
    const problem = this.trustProblem(account);
    if (problem) throw new DamagedExport(problem);
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const data of createReadStream(join(this.accountDir(account), 'export.json'), { highWaterMark: 1 << 20 })) {
      const chunk = data as Buffer;
      hash.update(chunk);
      bytes += chunk.length;
      yield chunk;
    }
    if (bytes !== meta.bytes || hash.digest('hex') !== meta.sha256) throw new DamagedExport('the cached export does not match its checksum');
  }

  /**
   * Until when the server refused a new export of this account (the Retry-After of its 429), while that is still
   * ahead: every lk that would ask before then (a sync, lk export, serve --sync-every) asks no one instead. Nothing
   * (undefined) when none is remembered, it has passed, or the folder or file cannot be trusted.
   */
  async refusedUntil(account: string, now: number): Promise<number | undefined> {
    if (this.trustProblem(account)) return undefined;
    const text = await readIfPresent(join(this.accountDir(account), 'refused.json')).catch(() => undefined);
    if (text === undefined) return undefined;
    try {
      const refusal = JSON.parse(text.toString('utf8')) as { instance?: unknown; account?: unknown; until?: unknown };
      const until = Date.parse(String(refusal.until));
      if (refusal.instance !== this.instance || refusal.account !== account || Number.isNaN(until)) return undefined;
      return until > now && until <= now + MAX_REFUSAL_MS ? until : undefined;
    } catch {
      return undefined;
    }
  }

  /** Remembers a refusal of the server (see refusedUntil); a folder that cannot take it costs only the memory. */
  async rememberRefusal(account: string, until: number): Promise<void> {
    try {
      await this.prepare(account);
      const refusal = { instance: this.instance, account, until: new Date(until).toISOString() };
      await writeFileAtomic(join(this.accountDir(account), 'refused.json'), `${JSON.stringify(refusal, null, 2)}\n`);
    } catch {
      // Not remembered: the next run asks the server again, as before.
    }
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

/** The longest refusal believed (a day, as Retry-After is held to in api/rate-limit.ts): a planted year is not. */
const MAX_REFUSAL_MS = 86_400_000;

/** A cached body that turned out not to be the one its metadata vouches for (or was found where others can write). */
export class DamagedExport extends Error {}

async function readIfPresent(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
