import { Writable } from 'node:stream';
import type { Jq } from 'jq-wasm';
import { ExitCode, LkError, UsageError } from '../../util/errors.js';
import { IoStreams } from '../terminal/io.js';
import { prettyJson } from './pretty-json.js';
import { sanitizeMessage } from '../terminal/sanitize.js';
import type { Colors } from '../terminal/colors.js';

/**
 * `--jq EXPR`: jq itself (1.8, compiled to WebAssembly by the jq-wasm package), run over the JSON document the command
 * would have printed. Output as `gh --jq` prints it: a string raw, any other value as compact JSON, one a line.
 * The package is loaded only when the flag is given (about 100 ms, bench/jq.mjs).
 */

// jq's own exit statuses: 3 when the program does not compile, 5 when it fails at run time.
const JQ_COMPILE_ERROR = 3;

let loading: Promise<Jq> | undefined;

function loadJq(): Promise<Jq> {
  loading ??= import('jq-wasm').then(({ loadJq: load }) => load());
  return loading;
}

/** A jq program that compiled. */
export class JqFilter {
  private constructor(
    private readonly jq: Jq,
    readonly expression: string,
  ) {}

  /**
   * Compiles EXPR before any request: jq has no compile-only mode, so it runs once on `null`, and only a compile
   * error counts (a run-time error there, such as `.[]` on null, says nothing about the real input).
   */
  static async compile(expression: string): Promise<JqFilter> {
    if (expression.trim() === '') throw new UsageError('--jq needs an expression, e.g. --jq .id');
    const jq = await loadJq();
    const result = jq.raw('null', expression, ['-c']);
    if (result.exitCode === JQ_COMPILE_ERROR && /compile error/.test(result.stderr)) {
      const lines = result.stderr.split('\n').filter((line) => line !== '' && !/^jq: \d+ compile errors?$/.test(line));
      const [first = 'it does not compile', ...rest] = lines.map((line) => line.replace(/^jq: error: /, ''));
      throw new UsageError(`invalid --jq expression: ${first}`, rest.length > 0 ? sanitizeMessage(rest.join('\n')) : undefined);
    }
    return new JqFilter(jq, expression);
  }

  /**
   * Runs the filter over JSON text (one document, or several such as ndjson: jq reads each in turn) and returns the
   * lines to print. A run-time error still returns what came before it, with the error.
   */
  run(json: string, display: { terminal: boolean; colors?: Colors | undefined } = { terminal: false }): { text: string; error?: LkError } {
    const { terminal, colors } = display;
    let result: ReturnType<Jq['raw']>;
    try {
      result = this.jq.raw(json, this.expression, ['-c']);
    } catch (error) {
      // The WebAssembly machine itself failed (out of memory on a huge input, say): not jq's verdict on the filter.
      return {
        text: '',
        error: new LkError(
          `--jq: jq stopped: ${error instanceof Error ? error.message : String(error)}`,
          ExitCode.failure,
          'Filter a smaller listing (--max N), or pipe --json into the jq binary.',
        ),
      };
    }
    // jq-wasm trims the output as a whole; with -c no value starts or ends with white space, so nothing is lost.
    const lines = result.stdout === '' ? [] : result.stdout.split('\n');
    const text = lines.map((line) =>
      line.startsWith('"') ? rawString(line, terminal) : colors ? prettyJson(line, { colors, indent: false }) : line,
    );
    const output = text.length === 0 ? '' : `${text.join('\n')}\n`;
    if (result.exitCode === 0) return { text: output };
    const messages = result.stderr.split('\n').filter((line) => line.startsWith('jq: error'));
    const first = (messages[0] ?? result.stderr.split('\n')[0] ?? 'failed').replace(/^jq: error(?: \(at [^)]*\))?: /, '');
    const more = messages.length > 1 ? ` (and ${messages.length - 1} more)` : '';
    return { text: output, error: new LkError(`--jq: ${first}${more}`) };
  }
}

/** A string value printed raw, as `jq -r` does; on a terminal with escapes made harmless. */
function rawString(line: string, terminal: boolean): string {
  const value = JSON.parse(line) as string;
  return terminal ? sanitizeMessage(value) : value;
}

/**
 * What the command writes to stdout, held instead of printed, so that the filter sees the whole document (with --all,
 * the one array). Looks like a pipe to the formatters, so they write exactly the bytes a pipe would get.
 */
export class JqCapture {
  private chunks: string[] = [];
  readonly io: IoStreams;

  constructor(private readonly terminal: IoStreams) {
    const chunks = this.chunks;
    const sink = new Writable({
      decodeStrings: false,
      write(chunk: string | Buffer, _encoding, callback) {
        chunks.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
        callback();
      },
    });
    this.io = new IoStreams({
      stdout: sink,
      stderr: terminal.stderr,
      stdin: terminal.stdin,
      quiet: terminal.quiet,
      verbose: terminal.verbose,
      color: terminal.stderrColorEnabled ? 'always' : 'never',
    });
    // Nothing captured is coloured: the filter reads plain JSON.
    (this.io as { colorEnabled: boolean }).colorEnabled = false;
  }

  /** Filters what was captured and prints the result on the real stdout. */
  async finish(filter: JqFilter): Promise<void> {
    const captured = this.chunks.join('');
    this.chunks = [];
    if (captured.trim() === '') return;
    const terminal = this.terminal.stdoutIsTTY;
    // picocolors only for jq's coloured output on a terminal.
    const colors = terminal && this.terminal.colorEnabled ? (await import('picocolors')).default.createColors(true) : undefined;
    const { text, error } = filter.run(captured, { terminal, colors });
    await this.terminal.write(text);
    if (error) throw error;
  }
}
