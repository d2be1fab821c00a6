import { canonicalChoice } from '../util/choice.js';
import { DATA_FORMATS } from '../util/data-formats.js';
import type { OutputFlags } from './session.js';
import type { OutputFormat } from './formats/writer.js';

/** The formats a listing or a resource can be written in. */
const FORMATS = DATA_FORMATS satisfies readonly OutputFormat[];

/**
 * What a command prints, as the global output flags see it (kubectl's printer that says which kinds it can print):
 * the formats it writes, and in which of them --fields, --jq, --no-header and --csv-safe mean something. Declared
 * once per command (src/commands/define.ts); a flag that fits none of the formats the run can write is refused there,
 * before any request, for every command alike.
 */
export interface OutputShape {
  /**
   * The values of --format (and the shorthands --json, --ndjson, --csv, --tsv) the command writes: the one list its
   * --format accepts, its refusals name and completion offers.
   */
  readonly formats: readonly string[];
  /**
   * The format when no flag names one; unset: the `lk config` default when the command writes it, else a table on a
   * terminal, rows in a pipe.
   */
  readonly default?: string;
  /** Formats in which --fields picks the paths. */
  readonly fields: readonly string[];
  /** Formats --jq filters (JSON ones). */
  readonly jq: readonly string[];
  /** Formats with a header row to leave out (--no-header). */
  readonly header: readonly string[];
  /** Formats with cells a spreadsheet might run (--csv-safe). */
  readonly csvSafe: readonly string[];
  /** What to do instead, said with the refusal of a flag (`--fields`: "pick parts with jq: …"). */
  readonly instead?: Partial<Record<'--fields' | '--jq' | '--no-header' | '--csv-safe', string>>;
  /** With the command's own flag `option` given, the run prints `shape` instead (lk sql --schema: text). */
  readonly when?: { readonly option: string; readonly shape: OutputShape };
}

const TABULAR = ['table', 'csv', 'tsv'];

/** A listing (async pages of items) or one resource: every format, and every output flag in the formats that have it. */
export const DATA: OutputShape = { formats: FORMATS, fields: FORMATS, jq: ['json', 'ndjson'], header: TABULAR, csvSafe: ['csv'] };

/** Checks (lk doctor): a table of facts for a person, or the same facts as JSON (when asked: not the `lk config` default). */
export const CHECKS: OutputShape = { formats: ['table', 'json'], default: 'table', fields: [], jq: ['json'], header: [], csvSafe: [] };

/** A screen of the command's own for a person (lk status, lk diff), or its data as JSON: --fields and --jq ask for the JSON. */
export const SCREEN: OutputShape = { formats: ['table', 'json'], fields: ['json'], jq: ['json'], header: [], csvSafe: [] };

/** Text meant as is (a key, a script, a URL, a setting's value): no format applies. */
export const TEXT: OutputShape = { formats: [], fields: [], jq: [], header: [], csvSafe: [] };

/** A document in fixed formats (an Atom feed, an HTML page, the export): only what those formats take. */
export function documentShape(
  formats: readonly string[],
  defaultFormat: string,
  more: Partial<Omit<OutputShape, 'formats' | 'default'>> = {},
): OutputShape {
  return { formats, default: defaultFormat, fields: [], jq: [], header: [], csvSafe: [], ...more };
}

/** The output flags of a run as typed, the ones the shape is weighed against. */
export type ShapedFlags = Omit<OutputFlags, 'output' | 'quiet'> & { csvSafe?: boolean | undefined };

/** A flag the shape cannot honour: which, and in which format. */
export interface UnfitFlag {
  /** As typed: `--format csv` (also for --csv), `--fields`, `--jq`, `--no-header`, `--csv-safe`. */
  flag: string;
  /** The format that was named, when the flag fits other formats of the command (`--fields` with `--format ics`). */
  inFormat?: string;
  /** For a format: the command's own. */
  formats?: readonly string[];
  /** For a format: no command writes it. */
  unknown?: boolean;
  /** The shape's word on what to do instead. */
  instead?: string;
}

/**
 * --format as typed, in any case, as the command spells it; else as the other commands spell it (`known`: every
 * format some command writes); else as typed: a format no command writes.
 */
export function spelledFormat(typed: string, shape: OutputShape, known: readonly string[]): string {
  return canonicalChoice(typed, shape.formats) ?? canonicalChoice(typed, known) ?? typed;
}

/**
 * The first output flag of the run that the shape does not take, if any (`known`: every format some command writes).
 * Two formats named at once are left to the format choice (src/output/format-choice.ts).
 */
export function unfitFlag(shape: OutputShape, flags: ShapedFlags, known: readonly string[]): UnfitFlag | undefined {
  const named = flags.format ?? (['json', 'ndjson', 'csv', 'tsv'] as const).find((name) => flags[name]);
  if (named !== undefined && !shape.formats.includes(named))
    return { flag: `--format ${named}`, formats: shape.formats, ...(known.includes(named) ? {} : { unknown: true }) };
  // The formats this run may write: the one named, the command's own default, else any (the config default may name it).
  const possible = named !== undefined ? [named] : shape.default !== undefined ? [shape.default] : shape.formats;
  const checks: [string, boolean, readonly string[]][] = [
    ['--fields', flags.fields !== undefined, shape.fields],
    ['--jq', flags.jq !== undefined, shape.jq],
    ['--no-header', flags.header === false, shape.header],
    ['--csv-safe', flags.csvSafe === true, shape.csvSafe],
  ];
  for (const [flag, given, formats] of checks) {
    if (!given) continue;
    // --jq picks the JSON format itself when none is named.
    const candidates = flag === '--jq' && named === undefined ? shape.formats : possible;
    if (candidates.some((format) => formats.includes(format))) continue;
    const instead = shape.instead?.[flag as keyof NonNullable<OutputShape['instead']>];
    return { flag, ...(formats.length > 0 && named !== undefined ? { inFormat: named } : {}), ...(instead ? { instead } : {}) };
  }
  return undefined;
}

/**
 * The one line a refusal says: `--fields does not apply to lk feed`, `--format csv does not apply to lk feed (it writes
 * atom, json)`; a format no command writes, in the words of any other refused choice, with the command's own list.
 */
export function unfitMessage(unfit: UnfitFlag, command: string): string {
  if (unfit.unknown && unfit.formats && unfit.formats.length > 0) {
    const typed = unfit.flag.replace('--format ', '');
    return `option '--format <format>' argument '${typed}' is invalid. Allowed choices are ${unfit.formats.join(', ')}.`;
  }
  const where = unfit.inFormat ? ` --format ${unfit.inFormat}` : '';
  const own = unfit.formats && unfit.formats.length > 0 ? ` (it writes ${unfit.formats.join(', ')})` : '';
  const instead = unfit.instead ? ` (${unfit.instead})` : '';
  return `${unfit.flag} does not apply to ${command}${where}${own}${instead}`;
}
