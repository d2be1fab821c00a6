import type { Colors } from '../output/terminal/colors.js';
import { sanitizeText } from '../output/terminal/sanitize.js';
import { cutForDisplay, displayWidth, padToWidth, truncate } from '../output/terminal/width.js';
import { achievementDomainOf, achievementUnlockedAtOf } from '../items/achievement.js';
import { episodeOf, seasonOf } from '../items/calendar.js';
import { entryStatusOf, entryTypeOf, ownerEntryIdOf } from '../items/entry.js';
import { eventKindOf } from '../items/event.js';
import { notificationDateOf } from '../items/notification.js';
import { reviewWorkTitleOf } from '../items/review.js';
import { diffSummary, TITLE_OF, type ChangedItem, type CollectionDiff, type ExportDiff, type FieldChange, type Item } from './model.js';

/**
 * An ExportDiff for a person at a terminal, grouped like `git diff --stat`: a line per collection with its counts,
 * the items under it (+ added, - removed, ~ changed with each field's before → after, long texts shortened to the
 * part that changed), history as counts per domain with a bar (its events listed when `verbose`, those changed in
 * place always), the profile's fields, then the summary, wrapped to the terminal's width.
 */

export interface DiffViewOptions {
  colors: Colors;
  /** Terminal columns (80 in a pipe). */
  width: number;
  /** List the history events themselves, not only their counts. */
  verbose: boolean;
  /** The title of an event's entry (compare.ts knows the entries of both sides); events are named by it. */
  eventTitle?: (event: Item) => string | null;
}

/** Characters kept either side of the part of a long text that changed. */
const CONTEXT = 12;
const BAR = 30;
/** The widest collection's name, `notifications`: every group's counts start in one column. */
const NAME_WIDTH = 13;

export function diffText(diff: ExportDiff, options: DiffViewOptions): string {
  const { colors: c } = options;
  const width = Math.max(40, options.width);
  const nameWidth = Math.min(36, Math.floor(width * 0.4));
  const lines: string[] = [];
  const section = (name: string, part: CollectionDiff, titleOf: (item: Item) => unknown, detailOf: (item: Item) => string) => {
    if (part.added.length + part.removed.length + part.changed.length === 0) return;
    lines.push(`${c.bold(name.padEnd(NAME_WIDTH))} ${counts(c, part.added.length, part.removed.length, part.changed.length)}`);
    const row = (mark: string, title: unknown, detail: string) =>
      `  ${mark} ${padToWidth(truncate(shownText(title, nameWidth), nameWidth), nameWidth)}  ${truncate(detail, width - nameWidth - 6)}`;
    for (const item of part.added) lines.push(row(c.green('+'), titleOf(item), detailOf(item)));
    for (const item of part.removed) lines.push(row(c.red('-'), titleOf(item), detailOf(item)));
    changedLines(lines, c, part.changed, width);
  };
  section('library', diff, (entry) => TITLE_OF.library(entry) ?? entry.id, entryDetail);
  historySection(lines, diff, options, width);
  section(
    'lists',
    diff.lists,
    (list) => TITLE_OF.lists(list) ?? list.id,
    (list) => countOf(list.items, 'item'),
  );
  section(
    'reviews',
    diff.reviews,
    (review) => TITLE_OF.reviews(review) ?? review.id,
    (review) => shownText(reviewWorkTitleOf(review), 40),
  );
  section(
    'notifications',
    diff.notifications,
    (notification) => TITLE_OF.notifications(notification) ?? notification.id,
    (notification) => shownText(notificationDateOf(notification), 10),
  );
  section(
    'achievements',
    diff.achievements,
    (achievement) => TITLE_OF.achievements(achievement) ?? achievement.id,
    (achievement) => shownText(achievementUnlockedAtOf(achievement) ?? achievementDomainOf(achievement), 10),
  );
  if (diff.profile.changes.length > 0) {
    lines.push(`${c.bold('profile'.padEnd(NAME_WIDTH))} ${counts(c, 0, 0, diff.profile.changes.length)}`);
    for (const change of diff.profile.changes) lines.push(`      ${changeText(c, change, width - 6)}`);
  }
  for (const line of wrapSummary(diffSummary(diff), width)) lines.push(c.bold(line));
  return `${lines.join('\n')}\n`;
}

function changedLines(lines: string[], c: Colors, changed: ChangedItem[], width: number): void {
  for (const item of changed) {
    lines.push(`  ${c.yellow('~')} ${truncate(shownText(item.title ?? item.id, width), width - 4)}`);
    for (const change of item.changes) lines.push(`      ${changeText(c, change, width - 6)}`);
  }
}

/** The summary in lines of at most `width` cells, broken after a comma (a part longer than a line keeps its own). */
function wrapSummary(summary: string, width: number): string[] {
  const lines: string[] = [];
  for (const part of summary.split(', ')) {
    const last = lines.at(-1);
    if (last !== undefined && displayWidth(`${last}, ${part}`) + 1 <= width) lines[lines.length - 1] = `${last}, ${part}`;
    else {
      if (last !== undefined) lines[lines.length - 1] = `${last},`;
      lines.push(part);
    }
  }
  return lines;
}

function historySection(lines: string[], diff: ExportDiff, options: DiffViewOptions, width: number): void {
  const { colors: c } = options;
  const { added, removed, changed, byDomain } = diff.history;
  if (added.length + removed.length + changed.length === 0) return;
  lines.push(`${c.bold('history'.padEnd(NAME_WIDTH))} ${counts(c, added.length, removed.length, changed.length)}`);
  const domains = Object.entries(byDomain).sort(([a], [b]) => a.localeCompare(b));
  const most = Math.max(...domains.map(([, n]) => n.added + n.removed + n.changed));
  const bar = Math.min(BAR, width - 30);
  for (const [domain, n] of domains) {
    const scale = most > bar ? bar / most : 1;
    const plus = Math.max(n.added > 0 ? 1 : 0, Math.round(n.added * scale));
    const minus = Math.max(n.removed > 0 ? 1 : 0, Math.round(n.removed * scale));
    const tilde = Math.max(n.changed > 0 ? 1 : 0, Math.round(n.changed * scale));
    const figures = [n.added > 0 ? `+${n.added}` : '', n.removed > 0 ? `-${n.removed}` : '', n.changed > 0 ? `~${n.changed}` : '']
      .filter(Boolean)
      .join(' ');
    const bars = `${c.green('+'.repeat(plus))}${c.red('-'.repeat(minus))}${c.yellow('~'.repeat(tilde))}`;
    lines.push(`  ${sanitizeText(domain).padEnd(8)} ${figures.padEnd(14)} ${bars}`);
  }
  changedLines(lines, c, changed, width);
  if (!options.verbose) return;
  const titleOf = options.eventTitle ?? (() => null);
  for (const event of added) lines.push(`  ${c.green('+')} ${truncate(eventText(event, titleOf(event)), width - 4)}`);
  for (const event of removed) lines.push(`  ${c.red('-')} ${truncate(eventText(event, titleOf(event)), width - 4)}`);
}

function counts(c: Colors, added: number, removed: number, changed: number): string {
  const parts = [added > 0 ? c.green(`+${added}`) : '', removed > 0 ? c.red(`-${removed}`) : '', changed > 0 ? c.yellow(`~${changed}`) : ''];
  return parts.filter(Boolean).join(' ');
}

function entryDetail(entry: Item): string {
  const kind = entryTypeOf(entry);
  return `${padToWidth(kind === null ? '' : shownText(kind, 12), 8)} ${shownText(entryStatusOf(entry), 20)}`;
}

/** "2026-11-25 EPISODE_SEEN S3E8 Severance (entry e34GTb2)": the event's own fields, whichever it has, and its title. */
function eventText(event: Item, title: string | null): string {
  const date = typeof event.date === 'string' ? event.date.slice(0, 10) : 'undated';
  const kind = eventKindOf(event);
  const [season, number] = [seasonOf(event), episodeOf(event)];
  const episode = season !== undefined && number !== undefined ? `S${season}E${number}` : '';
  const entry = ownerEntryIdOf(event);
  const named = title === null ? '' : shownText(title, 40);
  return [date, shownText(kind, 30), episode, named, entry === null ? '' : `(entry ${shownText(entry, 40)})`].filter(Boolean).join(' ');
}

/** "rating 7 → 9", in `room` cells; a long text shows the part that changed, with a little context either side. */
function changeText(c: Colors, change: FieldChange, room: number): string {
  const { before, after } = change;
  let [a, b] = [shownText(before, room), shownText(after, room)];
  if (typeof before === 'string' && typeof after === 'string' && Math.max(before.length, after.length) > 2 * CONTEXT) {
    [a, b] = changedParts(sanitizeText(before), sanitizeText(after));
  }
  const field = sanitizeText(change.field);
  const half = Math.max(8, Math.floor((room - displayWidth(field) - 4) / 2));
  return `${field} ${c.red(truncate(a, half))} → ${c.green(truncate(b, half))}`;
}

/** The part of two texts between what they share at the start and at the end, with CONTEXT characters around it. */
function changedParts(before: string, after: string): [string, string] {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start += 1;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end += 1;
  const cut = (text: string) => {
    const from = Math.max(0, start - CONTEXT);
    const to = Math.min(text.length, text.length - end + CONTEXT);
    return `${from > 0 ? '…' : ''}${text.slice(from, to)}${to < text.length ? '…' : ''}`;
  };
  return [cut(before), cut(after)];
}

/** A value in a cell: text made harmless, — for nothing, a count for a list, never raw JSON of an object. */
function shownText(value: unknown, cells: number): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') return sanitizeText(cutForDisplay(value, cells));
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return countOf(value, 'item');
  return countOf(Object.keys(value), 'field');
}

function countOf(list: unknown, noun: string): string {
  const n = Array.isArray(list) ? list.length : 0;
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
