import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Database } from '../mirror/open.js';
import { mirrorChangedAt } from '../mirror/read.js';
import type { ReadingHost } from '../readings/host.js';
import type { MirrorHandle } from '../readings/mirror-handle.js';
import { BadQuery, documentAt, type Document } from './documents.js';

const gzipped = promisify(gzip);

/** Documents kept at most: every route, and a few dozen answers of /next.json to other ?limit values. */
const MOST_KEPT = 32;

/** A document as served: its bytes, their ETag, and since when they have been these bytes. */
export interface Served {
  body: Buffer;
  type: string;
  headers: Record<string, string>;
  etag: string;
  lastModified: number;
  /** The body gzipped, made once on the first request that accepts it. */
  gzipped(): Promise<Buffer>;
}

interface Cached {
  version: string;
  served: Served | undefined;
}

export interface StoreOptions {
  /** The served mirror, read through the public projection. */
  mirror: MirrorHandle;
  /** The engine's host for it (public), whose clock each document stops at its request's moment. */
  host: ReadingHost;
}

/**
 * The documents of the mirror, made one at a time, each inside one read transaction: a sync committing meanwhile
 * (in WAL, from another connection) is seen whole or not at all, never half. A document is made again when the
 * mirror has changed (SQLite's data_version) or a minute has passed (the calendar, lk next and lk status count from
 * now); until then every request gets the same bytes, and requests that arrive together share one making.
 */
export class DocumentStore {
  private readonly cache = new Map<string, Promise<Cached>>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: StoreOptions) {}

  /** The document at `path` for the request's query, undefined when there is none (404), or why the query is refused (400). */
  async get(path: string, query?: URLSearchParams): Promise<Served | BadQuery | undefined> {
    const route = documentAt(path, query);
    if (route === undefined || route instanceof BadQuery) return route;
    const { build, key } = route;
    const version = this.version();
    const previous = this.cache.get(key);
    const known = previous && (await previous.catch(() => undefined));
    if (known?.version === version) return known.served;
    // The first request for this version makes it; the others wait for that one.
    const current = this.cache.get(key);
    if (current && current !== previous) return (await current).served;
    const making = this.exclusive(async () => {
      const now = this.options.host.now();
      const host = { ...this.options.host, now: () => now };
      const [document, changedAt, madeFrom] = await this.inReadTransaction(
        async (db) => [await build({ host }), mirrorChangedAt(db), this.version(now)] as const,
      );
      // New bytes date from the sync that brought them: the first seen from it; later ones (a day passing) from now.
      const since = known?.served ? now : (changedAt ?? now);
      return { version: madeFrom, served: document && served(document, known?.served, since) };
    });
    // Kept in the order made (the oldest first). Keys come from requests (/next.json?limit=N): the oldest is let go
    // past a few dozen, so no client can grow the cache.
    this.cache.delete(key);
    this.cache.set(key, making);
    if (this.cache.size > MOST_KEPT) this.cache.delete(this.cache.keys().next().value!);
    // A document that failed is made afresh by the next request, not remembered as failed.
    making.catch(() => {
      if (this.cache.get(key) === making) this.cache.delete(key);
    });
    return (await making).served;
  }

  /** A page made by hand (the index), under the same read transaction. */
  read<T>(use: (db: Database) => Promise<T>): Promise<T> {
    return this.exclusive(() => this.inReadTransaction(use));
  }

  private version(now = this.options.host.now()): string {
    return `${this.options.mirror.version()}:${Math.floor(now / 60_000)}`;
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Only ever inside exclusive(): no other read is running, so the connection may be opened again first. */
  private inReadTransaction<T>(work: (db: Database) => Promise<T>): Promise<T> {
    return this.options.mirror.readHeld(work);
  }
}

function served(document: Document, before: Served | undefined, changedAt: number): Served {
  const body = Buffer.from(document.body, 'utf8');
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
  let zipped: Promise<Buffer> | undefined;
  return {
    body,
    type: document.type,
    headers: document.headers ?? {},
    etag,
    // Unchanged bytes keep their date (to the second, as HTTP dates go).
    lastModified: before?.etag === etag ? before.lastModified : Math.floor(changedAt / 1000) * 1000,
    gzipped: () => (zipped ??= gzipped(body)),
  };
}
