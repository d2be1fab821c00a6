import type { ApiReader } from '../api/client.js';
import { MIRROR_STALE_MS } from '../config/paths.js';
import type { Database } from '../mirror/open.js';
import { mirrorAge, titleLanguage, type MirrorAge } from '../mirror/read.js';
import { UsageError } from '../util/errors.js';
import { formatDuration } from '../util/units.js';
import type { Audience, MirrorHandle } from './mirror-handle.js';
import type { Reading } from './table.js';

/**
 * What a surface hands the engine (./engine.ts) to run a reading: who it is for, the clock, the mirror it reads (and
 * the API where it may ask it), the run's language, and where to say how old the mirror is. Every surface makes one:
 * a command's run (commands/readings.ts commandHost), lk serve (public), lk mcp (the owner's), lk notify.
 */
export interface ReadingHost {
  /** 'public': every reading goes through the public projection (./projection.ts). */
  audience: Audience;
  now(): number;
  /** The zone of "this year" and of a review's days when the mirror's profile names none (TZ, else this machine's). */
  timeZone(): string;
  /** The mirror this surface reads, its connection opened by the first read (and closed by the surface). */
  mirror(): Promise<MirrorHandle>;
  /** The API, where this surface may ask it (a command online, lk mcp --live); undefined: the mirror only. */
  api?: (() => Promise<ApiReader>) | undefined;
  /** The language titles are asked in, and whether the command line asked for it (--lang) rather than the config. */
  language?: (() => { wanted: string | undefined; asked: boolean }) | undefined;
  /** Where the mirror's age and the language notice are said (a command's stderr); undefined: nowhere. */
  tell?: Teller | undefined;
}

export interface Teller {
  info(line: string): void;
  debug(line: string): void;
  /** A person reads stderr: the age line is always worth it there. */
  atTerminal: boolean;
}

/**
 * The mirror's connection for a reading: opened on the host's first read (its age said then), its titles checked
 * against the run's language where the reading shows titles.
 */
export async function mirrorFor(host: ReadingHost, reading?: Reading): Promise<Database> {
  const handle = await host.mirror();
  const first = !handle.opened;
  const db = handle.current();
  if (first && host.tell) sayMirrorAge(host.tell, host.now(), handle.path, mirrorAge(db));
  if (first && reading?.titles && host.language) requireTitleLanguage(host, db);
  return db;
}

/**
 * --lang offline: the mirror holds each title in the account's language (the language the export and pages came in),
 * so that language is honoured and any other is not: refused when asked with --lang (exit 2), said once on stderr
 * when it is the `lk config` default. A mirror that does not say its language (no profile synced) is read as it is.
 */
function requireTitleLanguage(host: ReadingHost, db: Database): void {
  const { wanted, asked } = host.language!();
  if (wanted === undefined) return;
  const held = titleLanguage(db);
  if (held === undefined || held === wanted.toLowerCase()) return;
  const why = `the mirror holds its titles in ${held} (the account's language, as lk sync received them)`;
  if (asked) throw new UsageError(`--lang ${wanted} with --offline: ${why}`, `Drop --offline to ask the server in ${wanted}, or leave out --lang.`);
  host.tell?.info(`lk: ${why}; the lang default ${wanted} applies online`);
}

/**
 * How old the mirror's data are, for a person at a terminal. Elsewhere (a pipe, cron, which mails whatever reaches
 * stderr) only a mirror not synced for a week is worth the line, with what to do.
 */
export function sayMirrorAge(tell: Teller, now: number, path: string, age: MirrorAge): void {
  const stale = age.syncedAt === undefined || now - age.syncedAt > MIRROR_STALE_MS;
  const ago = (at: number | undefined) => (at === undefined ? 'at an unknown time' : `${formatDuration((now - at) / 1000)} ago`);
  const hint = stale ? '; lk sync brings it up to date' : '';
  const line = `lk: from the mirror ${path}: data as of ${ago(age.snapshotAt)} (synced ${ago(age.syncedAt)})${hint}`;
  // LK_DEBUG (-v) tells every read where its data came from, as it tells every request.
  if (tell.atTerminal || stale) tell.info(line);
  else tell.debug(line);
}
