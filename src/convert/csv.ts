import { stringify } from 'csv-stringify/sync';

/** One CSV record (RFC 4180 quoting, LF line ends); values are strings or empty. */
export function csvLine(values: readonly (string | number | undefined)[]): string {
  return stringify([values.map((value) => (value === undefined ? '' : String(value)))], { record_delimiter: 'unix' });
}

/**
 * Header and rows packed into files of at most `maxBytes` bytes each, every file starting with the header. A row is
 * never cut; a single row too large for any file still gets a file of its own.
 */
export function packCsv(header: readonly string[], rows: readonly string[], maxBytes = Number.POSITIVE_INFINITY): string[] {
  const head = csvLine(header);
  const files: string[] = [];
  let current = head;
  let bytes = Buffer.byteLength(head);
  for (const row of rows) {
    const size = Buffer.byteLength(row);
    if (current !== head && bytes + size > maxBytes) {
      files.push(current);
      current = head;
      bytes = Buffer.byteLength(head);
    }
    current += row;
    bytes += size;
  }
  files.push(current);
  return files;
}
