import { shortDate } from './dates.js';
import { pickPaths } from './fields.js';
import { renderSingle } from './render.js';
import { sanitizeText } from './sanitize.js';
import type { DisplayContext } from './view.js';
import { displayWidth, padToWidth, truncate } from './width.js';
import type { OutputOptions } from './writer.js';

/**
 * A summary whose shape nobody promised (SPEC.md leaves the stats summary open), shown for a person: top-level
 * values first, then a heading per nested object with its keys and values aligned, numbers as 1,234. Every other
 * format gets the exact data (json as sent, csv/tsv flattened).
 */
export async function renderSections(value: unknown, options: OutputOptions): Promise<void> {
  if (options.format !== 'table') {
    await renderSingle(value, undefined, options);
    return;
  }
  const shown = options.fields ? pickPaths(value, options.fields) : value;
  await options.io.write(sectionsText(shown, options.display, options.io.columns));
}

export function sectionsText(value: unknown, display: DisplayContext, width: number): string {
  const { colors } = display;
  if (value === null || typeof value !== 'object') return `${sanitizeText(scalarText(value, display.now))}\n`;
  const blocks: string[] = [];
  const top = lines(value, 0, display, width);
  if (top) blocks.push(top);
  for (const [key, child] of entriesOf(value)) {
    if (!isNested(child)) continue;
    const body = lines(child, 1, display, width);
    blocks.push(`${colors.bold(sanitizeText(humanise(key)))}\n${body || `  ${colors.dim('(none)')}\n`}`);
  }
  return blocks.join('\n');
}

/** The scalar fields of one object as aligned lines, then its nested objects as indented sub-blocks. */
function lines(value: unknown, depth: number, display: DisplayContext, width: number): string {
  const { colors } = display;
  const indent = '  '.repeat(depth);
  const entries = entriesOf(value);
  const scalars = entries
    .filter(([, child]) => !isNested(child))
    .map(([key, child]) => [sanitizeText(humanise(key)), sanitizeText(scalarText(child, display.now)), typeof child === 'number'] as const);
  const keyWidth = Math.max(0, ...scalars.map(([key]) => displayWidth(key)));
  const numberWidth = Math.max(0, ...scalars.filter(([, , numeric]) => numeric).map(([, text]) => displayWidth(text)));
  const valueWidth = Math.max(10, width - indent.length - keyWidth - 2);
  let text = '';
  for (const [key, shown, numeric] of scalars) {
    const cell = numeric ? shown.padStart(numberWidth) : truncate(shown, valueWidth);
    text += `${indent}${colors.dim(padToWidth(key, keyWidth))}  ${cell}`.trimEnd() + '\n';
  }
  // Only the top level gets headings; deeper objects nest under their key, one step further in.
  if (depth === 0) return text;
  for (const [key, child] of entries) {
    if (!isNested(child)) continue;
    text += `${indent}${sanitizeText(humanise(key))}\n${lines(child, depth + 1, display, width) || `${indent}  ${colors.dim('(none)')}\n`}`;
  }
  return text;
}

/** Objects and arrays of objects nest; arrays of plain values are one line. */
function isNested(value: unknown): boolean {
  if (Array.isArray(value)) return value.some((item) => item !== null && typeof item === 'object');
  return value !== null && typeof value === 'object';
}

/** An array of objects becomes keyed by each element's label (its name, title, domain…, then left out) or position. */
function entriesOf(value: unknown): Array<[string, unknown]> {
  if (!Array.isArray(value)) return Object.entries(value as Record<string, unknown>);
  return value.map((item, i) => {
    const labelKey = LABEL_KEYS.find((key) => ['string', 'number'].includes(typeof (item as Record<string, unknown> | null)?.[key]));
    if (!labelKey) return [`#${i + 1}`, item];
    const { [labelKey]: label, ...rest } = item as Record<string, unknown>;
    return [String(label), rest];
  });
}

const LABEL_KEYS = ['name', 'title', 'label', 'domain', 'key', 'id'];
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** Numbers as 1,234 and dates shortened (a person reads them at a glance); a missing value as nothing. */
export function scalarText(value: unknown, now: number): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number') return value.toLocaleString('en-US', { maximumFractionDigits: 2 });
  if (typeof value === 'string' && ISO_DATE.test(value)) return shortDate(value, now);
  if (Array.isArray(value)) return value.map((item) => scalarText(item, now)).join(', ');
  return String(value);
}

/** `totalMinutes` → "Total minutes", `by_domain` → "By domain"; MEDIA and other all-caps keys stay as they are. */
export function humanise(key: string): string {
  if (/^[A-Z0-9_]+$/.test(key)) return key;
  const words = key.replace(/[_-]+/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
