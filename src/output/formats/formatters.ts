import type { View } from './view.js';
import type { Formatter, OutputFormat, OutputOptions } from './writer.js';

/** Each format's module is loaded only when a command writes in that format. */
export async function formatterFor(format: OutputFormat): Promise<Formatter> {
  switch (format) {
    case 'json':
      return (await import('./json.js')).json;
    case 'ndjson':
      return (await import('./json.js')).ndjson;
    case 'csv':
      return (await import('./delimited.js')).csv;
    case 'tsv':
      return (await import('./delimited.js')).tsv;
    case 'plain':
      return (await import('./delimited.js')).plain;
    case 'table':
      return (await import('./table.js')).table;
  }
}

export async function writeValue(value: unknown, view: View | undefined, options: OutputOptions): Promise<void> {
  const formatter = await formatterFor(options.format);
  await formatter.single(value, view, options);
}
