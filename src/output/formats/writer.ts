import type { IoStreams } from '../terminal/io.js';
import type { DisplayContext, View } from './view.js';

export type OutputFormat = 'table' | 'plain' | 'json' | 'ndjson' | 'csv' | 'tsv';

export interface OutputOptions {
  format: OutputFormat;
  /** --fields: dot paths that replace the view's columns in every format. */
  fields: string[] | undefined;
  /** `--fields help`: list the field paths the items carry instead of the output. */
  fieldsHelp?: boolean;
  header: boolean;
  csvSafe: boolean;
  io: IoStreams;
  display: DisplayContext;
}

/** Streams a listing: each page is written as it arrives (a table fixes its column widths from the first). */
export interface ListingWriter {
  write(items: unknown[]): Promise<void>;
  end(): Promise<void>;
  /** The listing stopped on an error: say what must still be said (on stderr), but close nothing on stdout. */
  abort?(): void;
}

export interface Formatter {
  listing(view: View, options: OutputOptions): ListingWriter;
  single(value: unknown, view: View | undefined, options: OutputOptions): Promise<void>;
}
