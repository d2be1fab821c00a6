import { UsageError } from '../util/errors.js';
import type { OutputFile } from '../util/output-file.js';
import { chooseFormat, type DeclaredFormats } from './format-choice.js';
import { FIELDS_HELP, parseFieldList } from './formats/fields.js';
import { supportsHyperlinks } from './terminal/hyperlinks.js';
import { IoStreams } from './terminal/io.js';
import { JqCapture, JqFilter } from './formats/jq.js';
import type { DisplayContext } from './formats/view.js';
import type { OutputFormat, OutputOptions } from './formats/writer.js';
import { openOutputFile } from '../util/output-file.js';

/** The output flags of a run as typed (the global ones, and -o of the command that takes it). */
export interface OutputFlags {
  format?: string | undefined;
  json?: boolean | undefined;
  ndjson?: boolean | undefined;
  csv?: boolean | undefined;
  tsv?: boolean | undefined;
  fields?: string | undefined;
  header?: boolean | undefined;
  jq?: string | undefined;
  output?: string | undefined;
  quiet?: boolean | undefined;
}

/** What a session needs from the run besides its flags: the terminal, the clock and the settled defaults. */
export interface SessionInputs {
  /** The run's terminal streams (Context.io). */
  io: IoStreams;
  env: NodeJS.ProcessEnv;
  now: () => number;
  /** The `lk config` format default, read only when no flag names one (a broken stored value is no one's concern then). */
  storedFormat: () => string | undefined;
  csvSafe: () => boolean;
}

const SHORTHANDS = ['json', 'ndjson', 'csv', 'tsv'] as const;

/**
 * One run's output: the format chosen, --fields (and `--fields help`), --jq (compiled before any request, applied
 * after the command), colours and hyperlinks, and the -o file (opened on first use, put in place by finish() once the
 * command succeeded, removed by close() when it did not, then `lk: wrote FILE`). Commands write data through `io`,
 * which is the terminal's stdout, or the capture --jq filters.
 */
export class OutputSession {
  /** Where the command's data goes: the terminal's streams, or with --jq the capture the filter reads. */
  readonly io: IoStreams;
  private readonly terminal: IoStreams;
  private readonly jqCapture: JqCapture | undefined;
  private jqFilter: JqFilter | undefined;
  private outputFile: OutputFile | undefined;
  private colorsPromise: Promise<DisplayContext['colors']> | undefined;

  constructor(
    readonly flags: OutputFlags,
    private readonly inputs: SessionInputs,
    /** What the command writes (src/output/shape.ts): the formats a flag may name, and its own default. */
    private readonly shape: DeclaredFormats,
  ) {
    this.terminal = inputs.io;
    this.jqCapture = flags.jq === undefined ? undefined : new JqCapture(inputs.io);
    this.io = this.jqCapture?.io ?? inputs.io;
  }

  /**
   * The run's format, the one choice every command reads (a listing's, a document's, a screen's): a shorthand or
   * --format, else the command's own default, else the `lk config` one, else table on a terminal, plain rows in a pipe.
   */
  format(): OutputFormat | string {
    // -o FILE is no terminal: plain rows there, as in a pipe.
    const toFile = this.flags.output !== undefined && this.flags.output !== '-';
    const shorthands = SHORTHANDS.filter((name) => this.flags[name]);
    return chooseFormat({
      shorthands,
      format: this.flags.format,
      jq: this.flags.jq,
      stored: this.readsStoredFormat(shorthands) ? this.inputs.storedFormat() : undefined,
      stdoutIsTTY: this.io.stdoutIsTTY && !toFile,
      allowed: this.shape.formats,
      defaultFormat: this.shape.default,
    });
  }

  /** The `lk config` default is read only when no flag names a format and the command has no default of its own. */
  private readsStoredFormat(shorthands: readonly string[]): boolean {
    return shorthands.length === 0 && this.flags.format === undefined && this.flags.jq === undefined && this.shape.default === undefined;
  }

  /** `--fields help`: list the paths instead (output/formats/render.ts). */
  fieldsHelp(): boolean {
    return this.flags.fields?.trim() === FIELDS_HELP;
  }

  fields(): string[] | undefined {
    if (this.flags.fields === undefined || this.fieldsHelp()) return undefined;
    const fields = parseFieldList(this.flags.fields);
    if (fields.length === 0) throw new UsageError('--fields needs at least one field, e.g. --fields id,work.title,status');
    return fields;
  }

  /**
   * How listings and single resources are written (a document's own format, such as ics, is written by its maker). With -o FILE
   * the output goes to a temporary file that finish() puts in place once the command has succeeded, so the file is
   * whole or untouched; a file is no terminal, so its default is plain rows, without colour.
   */
  async outputOptions(): Promise<OutputOptions> {
    const format = this.format() as OutputFormat;
    const fields = this.fields();
    if (this.flags.output !== undefined && this.flags.jq !== undefined) {
      throw new UsageError('--jq prints to stdout: it does not combine with -o', 'Redirect instead: lk … --jq EXPR > FILE');
    }
    const io = this.flags.output === undefined ? this.io : await this.openOutput(this.flags.output);
    return {
      format,
      fields,
      fieldsHelp: this.fieldsHelp(),
      header: this.flags.header !== false,
      csvSafe: this.inputs.csvSafe(),
      io,
      display: {
        now: this.inputs.now(),
        colors: await this.colors(io),
        hyperlinks: supportsHyperlinks(this.inputs.env, io.stdoutIsTTY, io.colorEnabled),
      },
    };
  }

  /** The streams of a run whose stdout is the -o file: stderr, -q and -v as the run's own. */
  private async openOutput(path: string): Promise<IoStreams> {
    if (path === '') throw new UsageError('-o/--output needs a path');
    if (path === '-') return this.io;
    this.outputFile ??= await openOutputFile(path, this.terminal);
    return new IoStreams({
      stdout: this.outputFile.stream,
      stderr: this.terminal.stderr,
      stdin: this.terminal.stdin,
      env: { ...this.inputs.env, COLUMNS: undefined },
      quiet: this.flags.quiet,
      verbose: this.terminal.verbose,
      color: 'never',
    });
  }

  colors(io: IoStreams = this.io): Promise<DisplayContext['colors']> {
    if (io !== this.io) return import('picocolors').then(({ default: pc }) => pc.createColors(io.colorEnabled));
    this.colorsPromise ??= import('picocolors').then(({ default: pc }) => pc.createColors(this.io.colorEnabled));
    return this.colorsPromise;
  }

  /**
   * Before the command: the format chosen (two named at once refused) and --jq compiled, so that a mistake exits 2
   * with nothing sent. A command that writes no format (TEXT) reads no stored one.
   */
  async begin(): Promise<void> {
    if (this.shape.formats.length > 0) this.format();
    if (this.flags.jq !== undefined) this.jqFilter = await JqFilter.compile(this.flags.jq);
  }

  /** After a successful command: the --jq filter applied, and the -o file put in place (and said so). */
  async finish(): Promise<void> {
    if (this.jqCapture && this.jqFilter) await this.jqCapture.finish(this.jqFilter);
    const file = this.outputFile;
    if (!file) return;
    this.outputFile = undefined;
    await file.commit();
    if (!file.through) this.terminal.info(`lk: wrote ${file.path}`);
  }

  /** The end of every run: an -o file not put in place by finish() is removed (the user's file stays as it was). */
  async close(): Promise<void> {
    await this.outputFile?.abort();
    this.outputFile = undefined;
    await this.io.finish();
  }
}
