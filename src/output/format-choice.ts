import { oneOf } from '../util/choice.js';
import { UsageError } from '../util/errors.js';
import type { OutputFormat } from './formats/writer.js';

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
  allowed: readonly string[];
}

/**
 * The output format: a shorthand or --format, else the `lk config` default, else a table on a terminal and plain
 * tab-separated rows in a pipe (like gh). Two formats named at once, or --jq with one that is not JSON, is refused.
 */
export function chooseFormat({ shorthands, format, jq, stored, stdoutIsTTY, allowed }: FormatRequest): OutputFormat | 'ics' {
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
  const named = shorthands[0] ?? format ?? stored;
  if (named === undefined) return stdoutIsTTY ? 'table' : 'plain';
  return oneOf('format', named, allowed) as OutputFormat | 'ics';
}
