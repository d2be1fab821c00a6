import { oneOf } from '../util/choice.js';
import { UsageError } from '../util/errors.js';
import type { OutputFormat } from './formats/writer.js';

/** The formats a command writes and its own default: the part of its output shape (./shape.ts) the choice reads. */
export interface DeclaredFormats {
  readonly formats: readonly string[];
  readonly default?: string | undefined;
}

export interface FormatRequest {
  /** The shorthands given (--json, --ndjson, --csv, --tsv). */
  shorthands: readonly string[];
  /** --format FMT. */
  format: string | undefined;
  /** --jq EXPR: the output is the JSON lk would print. */
  jq: string | undefined;
  /** The `lk config` default. */
  stored: string | undefined;
  stdoutIsTTY: boolean;
  /** The formats the command writes (its output shape). */
  allowed: readonly string[];
  /** The command's own default (its output shape), before the `lk config` one. */
  defaultFormat?: string | undefined;
}

/**
 * The output format of a run (kubectl's printer choice, with the shape's check in src/commands/define.ts before it):
 * a shorthand or --format, else the command's own default, else the `lk config` default when the command writes it,
 * else a table on a terminal and plain tab-separated rows in a pipe (like gh). Two formats named at once, or --jq with
 * one that is not JSON, is refused.
 */
export function chooseFormat({ shorthands, format, jq, stored, stdoutIsTTY, allowed, defaultFormat }: FormatRequest): OutputFormat | string {
  if (shorthands.length > 1 || (shorthands.length === 1 && format && format !== shorthands[0])) {
    throw new UsageError(
      `choose one output format, not ${[...shorthands.map((s) => `--${s}`), ...(format ? [`--format ${format}`] : [])].join(' and ')}`,
    );
  }
  if (jq !== undefined) {
    // --jq filters the JSON lk would print: JSON unless --ndjson asks for one document per item.
    const flag = shorthands[0] ?? format;
    if (flag !== undefined && flag !== 'json' && flag !== 'ndjson')
      throw new UsageError(`--jq filters JSON output; it does not combine with --format ${flag}`);
    return flag === 'ndjson' ? 'ndjson' : 'json';
  }
  const named = shorthands[0] ?? format;
  if (named !== undefined) return oneOf('format', named, allowed);
  if (defaultFormat !== undefined) return defaultFormat;
  // A stored default is a listing's: a command that does not write it shows what it shows without one.
  if (stored !== undefined && allowed.includes(stored)) return stored;
  return stdoutIsTTY ? 'table' : 'plain';
}
