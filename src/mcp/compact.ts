import { linked } from './links.js';
import { isObject } from '../util/json-value.js';

/**
 * An item of a listing as an assistant needs it, in a few hundred bytes: its page in the web app (`link`), its own
 * fields of one value (long texts such as notes cut at TEXT_MOST characters), small objects of such fields (dates,
 * progress) and its work the same way (title, type, domain, year…). Lists of values are kept when short; deeper
 * structure is left to get_entry, which gives the whole item. Fields a server adds are kept by the same rule.
 */

const TEXT_MOST = 200;
const LIST_MOST = 10;

export type CompactItem = { link: string | null } & Record<string, unknown>;

export function compactItem(item: unknown): CompactItem {
  const { link } = linked(item);
  return { link, ...(isObject(item) ? compactObject(item, 2) : { value: scalar(item) }) };
}

function compactObject(object: Record<string, unknown>, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(object)) {
    if (name === 'url') continue; // `link` carries it
    if (isScalar(value)) out[name] = scalar(value);
    else if (Array.isArray(value) && value.length <= LIST_MOST && value.every(isScalar)) out[name] = value.map(scalar);
    else if (isObject(value) && depth > 1) out[name] = compactObject(value, depth - 1);
  }
  return out;
}

const isScalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);
const scalar = (value: unknown) => (typeof value === 'string' && value.length > TEXT_MOST ? `${value.slice(0, TEXT_MOST - 1)}…` : value);
