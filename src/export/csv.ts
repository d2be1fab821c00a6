import { safeFileName } from './rotation.js';
import { columnsOf } from '../output/formats/fields.js';
import { csvRecord } from '../output/formats/delimited.js';
import { stringify } from 'csv-stringify/sync';

/**
 * The export as CSV files. docs/api.md does not fix the export's shape, so the files come from the data: every
 * top-level array of objects is a collection and becomes `<name>.csv` (one row per item, nested fields as dot-path
 * columns); everything else at the top level (scalars, objects, arrays of scalars) becomes one row of `export.csv`.
 */

export interface CsvFile {
  name: string;
  text: string;
  /** Data rows, not counting the header. */
  rows: number;
}

export interface ExportCsvOptions {
  header: boolean;
  csvSafe: boolean;
}

const REST_FILE = 'export';

export async function exportToCsvFiles(body: Record<string, unknown>, options: ExportCsvOptions): Promise<CsvFile[]> {
  const toText = (items: unknown[]): string => {
    const columns = columnsOf(items);
    const records = items.map((item) => csvRecord(item, columns, options.csvSafe));
    const rows = options.header && columns.length > 0 ? [columns, ...records] : records;
    return rows.length > 0 ? stringify(rows, { record_delimiter: 'unix' }) : '';
  };
  const taken = new Set<string>([REST_FILE]);
  const files: CsvFile[] = [];
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (isCollection(value)) {
      files.push({ name: `${uniqueName(safeFileName(key), taken)}.csv`, text: toText(value), rows: value.length });
    } else {
      rest[key] = value;
    }
  }
  if (Object.keys(rest).length > 0) files.push({ name: `${REST_FILE}.csv`, text: toText([rest]), rows: 1 });
  return files;
}

/** An array whose items are all objects (an empty array too: a collection with nothing in it yet). */
function isCollection(value: unknown): value is Record<string, unknown>[] {
  return Array.isArray(value) && value.every((item) => item !== null && typeof item === 'object' && !Array.isArray(item));
}

/** File systems may ignore case: `Lists` and `lists` must not land in one file. */
function uniqueName(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()); n += 1) name = `${base}-${n}`;
  taken.add(name.toLowerCase());
  return name;
}
