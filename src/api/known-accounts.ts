import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replaceStateFileSync } from '../util/atomic-file.js';
import { sha256Hex } from '../util/hash.js';

/**
 * Which account a key belongs to, per instance, learned from GET /v1/me (a key never changes account). The export
 * cache names its files after the account, and the rate-limit budget, which the API (docs/api.md) shares between all of an
 * account's keys, is kept per account once it is known. The key itself is never written: only a fingerprint of it,
 * salted with the instance.
 *
 *   accounts/<instance hash>/<key fingerprint>.json   {"account": "…"}
 */
export class KnownAccounts {
  private readonly dir: string;

  constructor(
    cacheDir: string,
    private readonly instance: string,
  ) {
    this.dir = join(cacheDir, 'accounts', sha256Hex(instance).slice(0, 16));
  }

  lookup(key: string): string | undefined {
    try {
      const account = (JSON.parse(readFileSync(this.fileOf(key), 'utf8')) as { account?: unknown }).account;
      return typeof account === 'string' && account !== '' ? account : undefined;
    } catch {
      return undefined; // not known yet, or a damaged file: either way GET /v1/me will tell
    }
  }

  /** A cache folder that cannot be written only costs a GET /v1/me next time. */
  remember(key: string, account: string): void {
    if (this.lookup(key) !== account) replaceStateFileSync(this.fileOf(key), `${JSON.stringify({ account })}\n`);
  }

  private fileOf(key: string): string {
    return join(this.dir, `${sha256Hex(`${this.instance}\n${key}`).slice(0, 32)}.json`);
  }
}
