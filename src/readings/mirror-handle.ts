import { existsSync } from 'node:fs';
import { fileIdAt } from '../mirror/mirror-file.js';
import { loadSqlite, nodeHasSqlite, openForReading, type Database } from '../mirror/open.js';
import { mirrorAge } from '../mirror/read.js';
import { readPublicProjection, type PublishedLists } from './projection.js';

/** Who a reading is for: the account's owner (the command line, lk mcp, /mcp with the token), or anyone (public). */
export type Audience = 'owner' | 'public';

/**
 * The one way lk's readings open the mirror, for every surface that reads it (a command's run, lk serve, lk mcp): a
 * read-only connection in lk's process, opened when first read, through the public projection (./projection.ts) when
 * its audience is the public. A long-lived surface keeps it: the file at the path is looked at before each read, and
 * another file standing there — a mirror deleted and synced anew, or replaced by a rename — gets a new connection (the
 * first would never see it: it holds the old file open); a sync into the same file is seen through WAL. While the new
 * file cannot be opened yet (a first sync still writing it), the last good connection goes on being read.
 * lk sql's queries are not read here: a person's SQL runs in a query process (mirror/query-process.ts).
 */
export class MirrorHandle {
  private db: Database | undefined;
  private file: string | undefined;
  private dataVersion: ReturnType<Database['prepare']> | undefined;
  /** Inside readHeld(): the connection is not opened again until the read is over. */
  private held = false;

  /** `what` names the reading for the refusal a Node without node:sqlite gets (`lk search`, `lk library --offline`). */
  constructor(
    readonly path: string,
    readonly audience: Audience,
    private readonly what = 'the local mirror',
    /** For a public handle: the lists it shows (the public ones unless the owner publishes others: lk publish --lists). */
    private readonly lists: PublishedLists = 'public',
  ) {}

  /** Whether a connection is open (the first read opens it). */
  get opened(): boolean {
    return this.db !== undefined;
  }

  /** The connection for the next read: opened on the first, opened again if another file stands at the path. */
  current(): Database {
    if (this.db === undefined) {
      loadSqlite(this.what);
      this.file = fileIdAt(this.path);
      this.adopt(this.openOne());
      return this.db!;
    }
    const file = fileIdAt(this.path);
    if (this.held || file === undefined || file === this.file) return this.db;
    let fresh: Database;
    try {
      fresh = this.openOne();
    } catch {
      return this.db;
    }
    this.db.close();
    this.file = file;
    this.adopt(fresh);
    return fresh;
  }

  /**
   * One read transaction (lk serve's documents): a sync committing meanwhile (in WAL, from another connection) is
   * seen whole or not at all, never half; the connection stays the same until it ends. Not to be nested.
   */
  async readHeld<T>(work: (db: Database) => Promise<T>): Promise<T> {
    const db = this.current();
    this.held = true;
    db.exec('BEGIN');
    try {
      return await work(db);
    } finally {
      db.exec('COMMIT');
      this.held = false;
    }
  }

  /** Changes whenever what a read would see changes: another file at the path, or a commit into this one. */
  version(): string {
    const file = fileIdAt(this.path) ?? this.file;
    if (file !== this.file) return `${file}:new`;
    const row = this.dataVersion?.get() as { data_version: number } | undefined;
    return `${file}:${row?.data_version ?? 0}`;
  }

  close(): void {
    this.db?.close();
    this.db = undefined;
    this.dataVersion = undefined;
  }

  private adopt(db: Database): void {
    this.db = db;
    this.dataVersion = db.prepare('PRAGMA data_version');
  }

  private openOne(): Database {
    const db = openForReading(this.path);
    if (this.audience === 'owner') return db;
    try {
      readPublicProjection(db, this.lists);
    } catch (error) {
      db.close();
      throw error;
    }
    return db;
  }
}

/** When the mirror at `path` was last synced, read in passing (lk status online); null when this Node has none to read. */
export function syncedAtOf(path: string): number | null | undefined {
  if (!nodeHasSqlite() || !existsSync(path)) return null;
  const db = openForReading(path);
  try {
    return mirrorAge(db).syncedAt;
  } finally {
    db.close();
  }
}
