import { Base64Value } from '../../util/base64-value.js';

/** Fields that name an object, in the order a person would read them. */
const LABEL_FIELDS = ['name', 'title', 'displayName', 'username', 'login', 'label', 'id'];

/**
 * An object in a table cell: the readable label it carries (name, title, username…), else nothing — a cell never
 * shows raw JSON. Scalars as cellText gives them.
 */
export function labelOf(value: unknown): string {
  if (value === null || typeof value !== 'object' || value instanceof Base64Value) return cellText(value);
  if (Array.isArray(value)) return value.every((item) => item === null || typeof item !== 'object') ? value.map(cellText).join(', ') : '';
  for (const field of LABEL_FIELDS) {
    const label = (value as Record<string, unknown>)[field];
    if (typeof label === 'string' || typeof label === 'number') return String(label);
  }
  return '';
}

/** One value as the text of a csv/tsv cell: exact, with nothing invented for what is missing. */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  // A BLOB: its base64 text, which decodes back to its bytes.
  if (value instanceof Base64Value) return value.encoded;
  return JSON.stringify(value);
}
