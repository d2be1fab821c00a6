import type { Colors } from '../terminal/colors.js';
import { ISO_DATE_TIME, shortDate } from './dates.js';
import { pickPaths } from './fields.js';
import { sanitizeText } from '../terminal/sanitize.js';
import { paintPhase } from './style.js';
import { phaseOf } from '../../vocabulary.js';
import type { DisplayContext } from './view.js';
import { displayWidth, padToWidth, truncate } from '../terminal/width.js';
import type { OutputOptions } from './writer.js';

/**
 * A summary whose shape nobody promised (docs/api.md leaves the stats summary open), shown for a person: top-level
 * values first, then a heading per nested object with its keys and values aligned, numbers as 1,234, and breakdowns
 * (counts per phase, per domain, a distribution) as proportional bars. Every other format gets the exact data (json
 * as sent, csv/tsv flattened: render.ts writes them before this is loaded).
 */
export async function writeSections(value: unknown, options: OutputOptions): Promise<void> {
  const shown = options.fields ? pickPaths(value, options.fields) : value;
  await options.io.write(sectionsText(shown, options.display, options.io.columns));
}

export function sectionsText(value: unknown, display: DisplayContext, width: number): string {
  const { colors } = display;
  if (value === null || typeof value !== 'object') return `${sanitizeText(scalarText(value, display.now))}\n`;
  const whole = breakdownOf(undefined, value);
  if (whole) return barLines(whole, 0, colors, width);
  const blocks: string[] = [];
  const top = lines(value, 0, display, width);
  if (top) blocks.push(top);
  for (const [key, child] of entriesOf(value)) {
    if (!isNested(child)) continue;
    const derived = breakdownOfParts(child);
    const heading =
      colors.bold(sanitizeText(humanise(key))) + (derived ? ` ${colors.dim(`(${sanitizeText(humanise(derived.field).toLowerCase())})`)}` : '');
    blocks.push(`${heading}\n${body(key, child, 1, display, width) || `  ${colors.dim('(none)')}\n`}`);
  }
  return blocks.join('\n');
}

/** What goes under a heading: bars for a breakdown; else the scalars, bars for the parts, then each nested object. */
function body(key: string, value: unknown, depth: number, display: DisplayContext, width: number): string {
  const breakdown = breakdownOf(key, value);
  if (breakdown) return barLines(breakdown, depth, display.colors, width);
  const derived = breakdownOfParts(value);
  const parts = derived ? `${barLines(derived.counts, depth, display.colors, width)}\n` : '';
  return parts + lines(value, depth, display, width);
}

/** The scalar fields of one object as aligned lines, then its nested objects as indented sub-blocks. */
function lines(value: unknown, depth: number, display: DisplayContext, width: number): string {
  const { colors } = display;
  const indent = '  '.repeat(depth);
  const entries = entriesOf(value);
  const scalars = entries
    .filter(([, child]) => !isNested(child))
    .map(([key, child]) => [sanitizeText(humanise(key)), sanitizeText(scalarText(child, display.now)), typeof child === 'number', child] as const);
  const keyWidth = Math.max(0, ...scalars.map(([key]) => displayWidth(key)));
  const numberWidth = Math.max(0, ...scalars.filter(([, , numeric]) => numeric).map(([, text]) => displayWidth(text)));
  const valueWidth = Math.max(10, width - indent.length - keyWidth - 2);
  let text = '';
  for (const [key, shown, numeric, raw] of scalars) {
    const cell = numeric ? shown.padStart(numberWidth) : paintPhase(truncate(shown, valueWidth), raw, colors);
    text += `${indent}${colors.dim(padToWidth(key, keyWidth))}  ${cell}`.trimEnd() + '\n';
  }
  // Only the top level gets headings; deeper objects nest under their key, one step further in.
  if (depth === 0) return text;
  for (const [key, child] of entries) {
    if (!isNested(child)) continue;
    const label = paintPhase(sanitizeText(humanise(key)), key, colors);
    text += `${indent}${label}\n${body(key, child, depth + 1, display, width) || `${indent}  ${colors.dim('(none)')}\n`}`;
  }
  return text;
}

type Counts = Array<[string, number]>;

/**
 * A breakdown: an object of two or more counts (none negative, not all zero) that reads as parts of a whole, because
 * its keys are labels (PLANNED, MEDIA, 1 to 10) or its name says so (byType, perMonth, distribution). Totals such as
 * {entries, rated, averageRating} or a profile's counts {entries, lists, reviews} are figures of different kinds,
 * whose shares of a sum would mean nothing: they stay a plain list.
 */
export function breakdownOf(key: string | undefined, value: unknown): Counts | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const entries = Object.entries(value);
  if (entries.length < 2) return undefined;
  if (!entries.every(([, v]) => typeof v === 'number' && Number.isFinite(v) && v >= 0)) return undefined;
  if (!entries.some(([, v]) => (v as number) > 0)) return undefined;
  const labelled = entries.every(([k]) => /^[A-Z0-9_]+$/.test(k));
  const named = key !== undefined && /^(by|per)([A-Z_]|$)|distribution|breakdown|histogram/i.test(key);
  return labelled || named ? (entries as Counts) : undefined;
}

/** Where each part carries its own count (byDomain: {MEDIA: {entries: 146, …}, …}), the counts of the parts. */
const PART_COUNTS = ['entries', 'count', 'total', 'items'];

export function breakdownOfParts(value: unknown): { field: string; counts: Counts } | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const parts = entriesOf(value);
  if (parts.length < 2 || !parts.every(([, part]) => part !== null && typeof part === 'object' && !Array.isArray(part))) return undefined;
  const count = (part: unknown, field: string) => (part as Record<string, unknown>)[field];
  const field = PART_COUNTS.find((name) => parts.every(([, part]) => typeof count(part, name) === 'number' && (count(part, name) as number) >= 0));
  if (!field || !parts.some(([, part]) => (count(part, field) as number) > 0)) return undefined;
  return { field, counts: parts.map(([label, part]) => [label, count(part, field) as number]) };
}

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
const MAX_BAR = 24;
const MIN_BAR = 6;

/** `PLANNED      64  ██████████▌          26%`: each count, a bar as long as its share of the largest, its share of all. */
function barLines(counts: Counts, depth: number, colors: Colors, width: number): string {
  const indent = '  '.repeat(depth);
  const labels = counts.map(([key]) => sanitizeText(humanise(key)));
  const numbers = counts.map(([, n]) => scalarText(n, 0));
  const keyWidth = Math.max(...labels.map((label) => displayWidth(label)));
  const numberWidth = Math.max(...numbers.map((text) => text.length));
  const max = Math.max(...counts.map(([, n]) => n));
  const sum = counts.reduce((total, [, n]) => total + n, 0);
  // indent, key, 2, number, 2, bar, 2, "100%"
  const room = width - indent.length - keyWidth - numberWidth - 10;
  const barWidth = Math.min(MAX_BAR, room);
  let text = '';
  counts.forEach(([key, n], i) => {
    const share = n === 0 ? '0%' : n / sum < 0.005 ? '<1%' : `${Math.round((n / sum) * 100)}%`;
    const bar = barWidth >= MIN_BAR ? barOf(n, max, barWidth) : '';
    const glyphs = bar.trimEnd();
    const shownBar = bar ? `${paintPhase(glyphs, key, colors)}${bar.slice(glyphs.length)}  ` : '';
    const label = phaseOf(key) ? paintPhase(padToWidth(labels[i]!, keyWidth), key, colors) : colors.dim(padToWidth(labels[i]!, keyWidth));
    text += `${indent}${label}  ${numbers[i]!.padStart(numberWidth)}  ${shownBar}${colors.dim(share.padStart(4))}`.trimEnd() + '\n';
  });
  return text;
}

/** A bar `width` cells wide at most, in eighths of a cell, padded with blanks so that what follows lines up. */
export function barOf(value: number, max: number, width: number): string {
  let eighths = max > 0 ? Math.round((value / max) * width * 8) : 0;
  if (value > 0 && eighths === 0) eighths = 1; // a count above zero never looks like none
  const bar = '█'.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8];
  return bar + ' '.repeat(width - displayWidth(bar));
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

/** Numbers as 1,234 and dates shortened (a person reads them at a glance); a missing value as nothing. */
export function scalarText(value: unknown, now: number): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number') return value.toLocaleString('en-US', { maximumFractionDigits: 2 });
  if (typeof value === 'string' && ISO_DATE_TIME.test(value)) return shortDate(value, now);
  if (Array.isArray(value)) return value.map((item) => scalarText(item, now)).join(', ');
  return String(value);
}

/** `totalMinutes` → "Total minutes", `by_domain` → "By domain"; MEDIA and other all-caps keys stay as they are. */
export function humanise(key: string): string {
  if (/^[A-Z0-9_]+$/.test(key)) return key;
  const words = key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
