import { fileIdAt } from '../mirror/mirror-file.js';
import { openForReading, type Database } from '../mirror/open.js';
import { readPublicProjection } from './projection.js';

/**
 * The mirror as lk serve reads it: one connection, opened again when another file stands at the path — a mirror
 * deleted and synced anew, or replaced by a rename — which the first connection would never see (it holds the old
 * file open). A sync into the same file is seen through SQLite's data_version. While the path is missing or the new
 * file cannot be opened yet (a first sync still writing it), the last good mirror goes on being served. Every
 * connection reads the public projection (projection.ts), never the mirror's tables themselves.
 */
export class MirrorConnection {
  private db: Database;
  private file: string | undefined;
  private dataVersion;

  constructor(private readonly path: string) {
    this.file = fileIdAt(path);
    this.db = openPublic(path);
    this.dataVersion = this.db.prepare('PRAGMA data_version');
  }

  /** Changes whenever what a read would see changes: another file at the path, or a commit into this one. */
  version(): string {
    const file = fileIdAt(this.path) ?? this.file;
    if (file !== this.file) return `${file}:new`;
    const row = this.dataVersion.get() as { data_version: number } | undefined;
    return `${file}:${row?.data_version ?? 0}`;
  }

  /** The connection for the next read, reopened first if another file stands at the path. Call only between reads. */
  current(): Database {
    const file = fileIdAt(this.path);
    if (file === undefined || file === this.file) return this.db;
    let fresh: Database;
    try {
      fresh = openPublic(this.path);
    } catch {
      return this.db;
    }
    this.db.close();
    this.db = fresh;
    this.file = file;
    this.dataVersion = fresh.prepare('PRAGMA data_version');
    return fresh;
  }

  close(): void {
    this.db.close();
  }
}

function openPublic(path: string): Database {
  const db = openForReading(path);
  try {
    readPublicProjection(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
