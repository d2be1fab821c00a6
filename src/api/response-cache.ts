import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { replaceStateFileSync } from '../util/atomic-file.js';
import { sha256Hex } from '../util/hash.js';

/** A response as the client holds it (client.ts's ApiResponse; declared here so the two files do not import each other). */
export interface CachedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
}

/**
 * `--cache DURATION` (like `gh api --cache 1h`): successful GET answers kept in the cache folder, so that a shell
 * prompt or a status bar asking every few seconds spends no rate limit. One file per instance, key and URL:
 *
 *   responses/<sha256 of instance, key fingerprint, URL>.json   {url, storedAt, expiresAt, status, contentType, text}
 *
 * Per key rather than per account: a key with fewer scopes must not be answered from another key's data. The key is
 * never written, nor any hash of it alone: only a fingerprint salted with the instance goes into the file name's hash.
 * Files are 0600 in a 0700 folder (they hold the account's data); expired entries are removed on every use.
 */
export class ResponseCache {
  private readonly dir: string;
  private readonly owner: string;

  constructor(
    cacheDir: string,
    private readonly instance: string,
    key: string,
    private readonly maxAgeMs: number,
    private readonly now: () => number,
  ) {
    this.dir = join(cacheDir, 'responses');
    this.owner = sha256Hex(`${instance}\n${key}`).slice(0, 32);
  }

  /** A stored answer for this URL younger than the duration asked for, else undefined. */
  read(url: URL): CachedResponse | undefined {
    this.sweep();
    try {
      const stored = JSON.parse(readFileSync(this.fileOf(url), 'utf8')) as StoredResponse;
      if (stored.url !== url.href || typeof stored.text !== 'string' || this.now() - stored.storedAt >= this.maxAgeMs) return undefined;
      return { status: stored.status, headers: { 'content-type': stored.contentType, 'x-lk-cache': 'hit' }, text: stored.text, json: undefined };
    } catch {
      return undefined; // nothing stored, or a damaged file: ask the server
    }
  }

  /** Keeps a successful answer; a cache folder that cannot be written only costs a request next time. */
  write(url: URL, response: CachedResponse): void {
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      chmodSync(this.dir, 0o700);
    } catch {
      return;
    }
    const storedAt = this.now();
    const entry: StoredResponse = {
      url: url.href,
      storedAt,
      expiresAt: storedAt + this.maxAgeMs,
      status: response.status,
      contentType: typeof response.headers['content-type'] === 'string' ? response.headers['content-type'] : 'application/json',
      text: response.text,
    };
    replaceStateFileSync(this.fileOf(url), JSON.stringify(entry));
  }

  /** Removes entries past the expiry they were written with (and damaged ones). */
  private sweep(): void {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return;
    }
    const now = this.now();
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      const path = join(this.dir, name);
      try {
        const { expiresAt } = JSON.parse(readFileSync(path, 'utf8')) as Partial<StoredResponse>;
        if (typeof expiresAt !== 'number' || expiresAt <= now) rmSync(path, { force: true });
      } catch {
        // Another run may be replacing it; a file that stays unreadable is removed once it is a day old.
        try {
          if (now - statSync(path).mtimeMs > 86_400_000) rmSync(path, { force: true });
        } catch {
          // gone already
        }
      }
    }
  }

  private fileOf(url: URL): string {
    return join(this.dir, `${sha256Hex(`${this.instance}\n${this.owner}\n${url.href}`).slice(0, 40)}.json`);
  }
}

interface StoredResponse {
  url: string;
  storedAt: number;
  expiresAt: number;
  status: number;
  contentType: string;
  text: string;
}
