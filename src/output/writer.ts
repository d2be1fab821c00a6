import type { IoStreams } from '../io.js';
import type { DisplayContext, View } from './view.js';

export type OutputFormat = 'table' | 'plain' | 'json' | 'ndjson' | 'csv' | 'tsv';

export interface OutputOptions {
  format: OutputFormat;
  /** --fields: dot paths that replace the view's columns in every format. */
  fields: string[] | undefined;
  header: boolean;
  csvSafe: boolean;
  io: IoStreams;
  display: DisplayContext;
}

/** Streams a listing: each page is written as it arrives (a table waits for all, to align its columns). */
export interface ListingWriter {
  write(items: unknown[]): Promise<void>;
  end(): Promise<void>;
}

export interface Formatter {
  listing(view: View, options: OutputOptions): ListingWriter;
  single(value: unknown, view: View | undefined, options: OutputOptions): Promise<void>;
}
