import type { View } from './view.js';
import type { Formatter, OutputFormat, OutputOptions } from './writer.js';

/**
 * Each format's module, loaded only when a command writes in that format (the table format and its width measure,
 * csv-stringify): the one table of them.
 */
const FORMATTERS: Record<OutputFormat, () => Promise<Formatter>> = {
  json: () => import('./json.js').then((module) => module.json),
  ndjson: () => import('./json.js').then((module) => module.ndjson),
  csv: () => import('./delimited.js').then((module) => module.csv),
  tsv: () => import('./delimited.js').then((module) => module.tsv),
  plain: () => import('./delimited.js').then((module) => module.plain),
  table: () => import('./table.js').then((module) => module.table),
};

export function formatterFor(format: OutputFormat): Promise<Formatter> {
  return FORMATTERS[format]();
}

export async function writeValue(value: unknown, view: View | undefined, options: OutputOptions): Promise<void> {
  const formatter = await formatterFor(options.format);
  await formatter.single(value, view, options);
}
