import type { Page } from '../api/paginate.js';
import { ExitCode, LkError } from '../util/errors.js';
import type { IoStreams } from './terminal/io.js';
import type { View } from './formats/view.js';
import type { OutputOptions } from './formats/writer.js';
import type { OutputSession } from './session.js';

/**
 * What a command's run returns for the wrapper (src/commands/define.ts) to show: the command gathers, output/show.ts
 * decides how it reads — a listing, a resource, checks, text, a document (bytes kept as they are, output/document.ts)
 * or a service (a server until Ctrl-C). Listings, resources and documents are lazy, so that the output flags (-o,
 * --fields, --jq, a binary for a terminal) are checked before the first request is sent.
 *
 * A result read from something the run opened (the mirror, lk sql's query process) needs it open while it is shown:
 * the run hands its closing to the context (`ctx.closeWhenDone(() => db.close())`), and the wrapper's ctx.close()
 * runs it once the result is shown, when showing failed or stopped early (a reader such as `| head` gone), and when
 * the run itself failed after opening. A result carries no release of its own: the run owns what it opened, so no
 * command needs a try/finally around what it returns, and nothing that shows a result can forget to release it.
 */
export type Result = Listing | Resource | Checks | Text | OwnWriting | Document | Service;

/** Items page by page (an async stream), shown through a view. */
export interface Listing {
  kind: 'listing';
  pages: AsyncIterable<Page>;
  view: View;
  /** The command takes --page/--all, so "Showing N of TOTAL" can suggest them. */
  paged: boolean;
  /** What to tell a person once the items are written (lk next: how many more there are), on the output's streams. */
  after?: (io: IoStreams) => void;
  /** With --format json, this one value in place of the array of items (lk config list: settings by name, and profiles). */
  json?: () => unknown;
  /** Listings a person reads after this one, each after a blank line, in a table only (lk config list: the profiles). */
  tablesAfter?: Listing[];
}

/**
 * One value. `layout` is how a table shows it: `view` (the default, a record through a view or key/value lines) or
 * `sections` (stats, profile: a section per group of figures). `write` is a command's own way to write the value, in
 * every format, in place of a layout (lk whoami's account, a list with its items: output/wording/layouts.ts).
 * `screen` is a command's own screen for a person (shape SCREEN: lk status, lk diff), shown in place of a layout
 * unless the JSON is asked for (--json, --fields or --jq). `failure` fails the run once the result is shown (lk diff
 * --exit-code).
 */
export interface Resource {
  kind: 'resource';
  read: () => Promise<unknown>;
  view?: View;
  layout?: 'view' | 'sections';
  write?: (value: unknown, options: OutputOptions) => Promise<void>;
  screen?: (value: unknown, options: OutputOptions) => Promise<string>;
  failure?: () => LkError | undefined;
}

export type CheckStatus = 'ok' | 'warn' | 'fail';

/** One fact a check found; the JSON keys are fixed (scripts read them). */
export interface Check {
  id: string;
  status: CheckStatus;
  message: string;
  /** What to do about a warn or fail; null when nothing needs doing. */
  fix: string | null;
}

/** Facts checked (lk doctor): a line each on a terminal, `{ok, checks}` as JSON; the run fails when one failed. */
export interface Checks {
  kind: 'checks';
  checks: Check[];
}

/**
 * A result the command writes itself, whatever the format (lk auth status: a report per profile, as a table or JSON);
 * the run fails afterwards with `failure` (a refused key).
 */
export interface OwnWriting {
  kind: 'own';
  write: (out: OutputSession) => Promise<void>;
  failure: LkError | undefined;
}

/** Text meant as is, for a script or a shell (a key, a completion script, a URL, a setting's value). */
export interface Text {
  kind: 'text';
  text: string;
}

/**
 * Bytes kept exactly as they are: a feed, a page, an iCalendar feed, the export, files another service imports, a
 * response body. The wrapper (output/document.ts) puts them where they go, the one place lk writes a document: to
 * stdout (through --jq and the pager, as any output), or each file whole or not at all (the -o file, the command's
 * default file, a new entry in a backup folder), and says so on stderr. `make` is lazy like a resource's `read`: where
 * the bytes go (-o, --jq with a file, a binary for a terminal) is checked before anything is asked of the server.
 */
export interface Document {
  kind: 'document';
  /** What the bytes are: atom, json, html, ics, csv, xml, or gzip (binary: see `terminal`). */
  format: string;
  /** Where the bytes go without -o (the command's -o flag; `-` is stdout): stdout, or this file (lk report's page). */
  file?: string | undefined;
  /** Instead of stdout or -o, a new file or folder in this folder, named by `make` (lk export --output-dir). */
  folder?: string | undefined;
  /**
   * What stdout may show a person at a terminal: `text` as is (the default), `exact` data with what a terminal would
   * act on shown escaped, `json` indented and coloured when it is JSON (the bytes exactly elsewhere), or `refuse`:
   * binary, refused with that error before anything is made (gzip).
   */
  terminal?: 'text' | 'exact' | 'json' | { refuse: LkError };
  /** The bytes, once where they go is known: `target` names the -o file, for files named after it. */
  make(target: DocumentTarget): Promise<DocumentBody>;
}

export type DocumentTarget = { to: 'stdout' } | { to: 'file'; path: string } | { to: 'folder'; dir: string };

/** A file of a document, whole. */
export interface DocumentFile {
  path: string;
  data: string | Uint8Array;
}

export interface DocumentBody {
  /**
   * The bytes for stdout or the file: whole, or `items`, a JSON array written as its pages come (lk api --paginate).
   * None when there are only `beside` files (lk convert's parts) or nothing at all.
   */
  data?: string | Uint8Array | { items: AsyncIterable<unknown[]> };
  /** More files, written after `data` and only to files, each whole or not at all (lk convert's FILE-2.csv, FILE-unmatched.csv). */
  beside?: DocumentFile[];
  /** The new entry of the folder target: its name, and its files (named inside it) when it is a folder rather than `data`. */
  entry?: { name: string; files?: Array<{ name: string; data: string | Uint8Array }> };
  /** A file that already holds exactly these bytes is left untouched, its time too (lk feed: a site's upload or an ETag sees no change). */
  keepIdentical?: boolean;
  /** Said on a terminal's stderr when the document went to stdout holding nothing ("No upcoming episodes."). */
  empty?: string;
  /** What stderr says once it is written; by default `lk: wrote FILE (SIZE)` for a file and nothing for stdout. */
  said?: (written: Written) => string[];
  /** What the command then does with it, which may fail the run: open the page, rotate the folder, --strict. */
  after?: (written: Written) => Promise<void>;
}

/** Where a document was put: stdout, the files written (the main one first) or left untouched, or the folder's new entry. */
export interface Written {
  to: 'stdout' | 'files' | 'unchanged' | 'folder';
  paths: string[];
  /** The size of the main file (the first path). */
  bytes: number;
}

/**
 * A server that runs until the run is stopped (lk serve, lk sandbox). The wrapper starts it, writes what it announces
 * straight to stdout — never held by a pager, for a script or a person waits for that line — and then waits for the
 * run's signal (Ctrl-C, SIGTERM, a test's abort) to stop it. `endsCleanly`: that signal ends the run with exit 0
 * (lk serve under systemd or docker stop) instead of 128 + the signal.
 */
export interface Service {
  kind: 'service';
  signal: AbortSignal | undefined;
  endsCleanly: boolean;
  start(): Promise<Started>;
}

export interface Started {
  /** For stdout: the address (lk serve), the address and the demo keys (lk sandbox). */
  announce: string;
  /** For a person on stderr, once announced. */
  said?: string;
  stop(): Promise<void>;
}

export const service = (started: Omit<Service, 'kind'>): Service => ({ kind: 'service', ...started });

export const document = (made: Omit<Document, 'kind'>): Document => ({ kind: 'document', ...made });

export const text = (value: string): Text => ({ kind: 'text', text: value });

export const listing = (
  pages: AsyncIterable<Page>,
  view: View,
  paged: boolean,
  more: Pick<Listing, 'after' | 'json' | 'tablesAfter'> = {},
): Listing => ({
  kind: 'listing',
  pages,
  view,
  paged,
  ...more,
});
export const resource = (read: () => Promise<unknown>, more: Omit<Resource, 'kind' | 'read'> = {}): Resource => ({ kind: 'resource', read, ...more });

/** What the run ends with once its result is shown (and --jq applied, -o put in place): a failed check fails it. */
export function failureOf(result: Result): LkError | undefined {
  if (result.kind === 'own') return result.failure;
  if (result.kind === 'resource') return result.failure?.();
  if (result.kind === 'checks' && result.checks.some((check) => check.status === 'fail')) {
    return new LkError('some checks failed (see above)', ExitCode.failure);
  }
  return undefined;
}
