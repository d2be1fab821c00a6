import type { Colors } from '../terminal/colors.js';
import { shortDate, shortDateTime } from '../formats/dates.js';
import { cellText } from '../formats/cell.js';
import { sanitizeText } from '../terminal/sanitize.js';
import { notificationDateOf, notificationHeadlineOf, notificationIsRead } from '../../items/notification.js';
import { formatCount } from '../../util/units.js';
import { NEWER_NODE_WAYS } from '../../util/newer-node.js';
import { eventDetail } from './views.js';

/** What `lk status` shows (its --json object, schema version 1), as src/overview/status.ts makes it. */
interface StatusShown {
  inProgress: { total: number; byDomain: Record<string, number> };
  activity: { last7Days: number; last30Days: number; thisYear: number };
  upcoming: { title: string | null; season: number | null; episode: number | null; airsAt: string }[];
  notifications: { latest: unknown[] };
  mirror: { syncedAt: string | null; needsNode?: string } | null;
}

interface Measure {
  displayWidth(text: string): number;
  truncate(text: string, width: number): string;
}

/** Printable ASCII: one cell a character, no need to load string-width (~80 ms) to measure it. */
const ASCII = /^[\x20-\x7e]*$/;
const asciiMeasure: Measure = {
  displayWidth: (text) => text.length,
  truncate: (text, width) => (text.length <= width ? text : width <= 0 ? '' : `${text.slice(0, width - 1)}…`),
};

/** A mirror older than this gets a hint to run lk sync. */
const MIRROR_OLD_MS = 24 * 3_600_000;
const UPCOMING_SHOWN = 8;

const notificationTitle = (notification: unknown) => sanitizeText(cellText(notificationHeadlineOf(notification) ?? ''));

/**
 * `lk status` on a terminal (and in a pipe without --json): one screen as `gh status` lays out its own, a heading
 * per part, every line cut to the width (80 columns reads as designed; below 64, shorter labels, titles cut).
 */
export async function statusScreen(status: StatusShown, display: { now: number; colors: Colors }, width: number): Promise<string> {
  const texts = [...status.upcoming.map((item) => item.title ?? ''), ...status.notifications.latest.map(notificationTitle)];
  const measure = texts.every((text) => ASCII.test(text)) ? asciiMeasure : await import('../terminal/width.js');
  return statusText(status, display, width, measure);
}

function statusText(status: StatusShown, { now, colors }: { now: number; colors: Colors }, width: number, measure: Measure): string {
  const narrow = width < 64;
  const fit = (text: string, room = width) => measure.truncate(text, Math.max(1, room));
  const out: string[] = [];

  const domains = Object.entries(status.inProgress.byDomain)
    .filter(([, count]) => count > 0)
    .map(([domain, count]) => `${domain} ${formatCount(count)}`);
  const total = `  ${formatCount(status.inProgress.total)}`;
  out.push(colors.bold('In progress'));
  out.push(domains.length > 0 ? `${total}${colors.dim(fit(`  ${domains.join(' · ')}`, width - total.length))}` : total);
  out.push('');

  const { last7Days, last30Days, thisYear } = status.activity;
  out.push(colors.bold('Activity'));
  out.push(
    fit(
      narrow
        ? `  7 days ${formatCount(last7Days)} · 30 days ${formatCount(last30Days)} · year ${formatCount(thisYear)}`
        : `  ${formatCount(last7Days)} in the last 7 days · ${formatCount(last30Days)} in 30 days · ${formatCount(thisYear)} this year`,
    ),
  );
  out.push('');

  out.push(colors.bold('Airing in the next 7 days'));
  if (status.upcoming.length === 0) out.push(colors.dim('  nothing'));
  const shown = status.upcoming.slice(0, UPCOMING_SHOWN);
  const whens = shown.map((item) => (narrow ? shortDateTime(item.airsAt, now).replace(/ \(.*\)$/, '') : shortDateTime(item.airsAt, now)));
  const whenWidth = Math.max(0, ...whens.map((when) => when.length));
  for (const [i, item] of shown.entries()) {
    const left = `  ${whens[i]!.padEnd(whenWidth)}  `;
    const code = eventDetail(item);
    const right = code ? `  ${code}` : '';
    const title = fit(sanitizeText(item.title ?? ''), width - left.length - right.length);
    out.push(`${colors.dim(left)}${title}${right}`);
  }
  if (status.upcoming.length > UPCOMING_SHOWN) out.push(colors.dim(`  and ${status.upcoming.length - UPCOMING_SHOWN} more: lk calendar`));
  out.push('');

  out.push(colors.bold('Notifications'));
  if (status.notifications.latest.length === 0) out.push(colors.dim('  none'));
  for (const notification of status.notifications.latest) {
    const when = shortDate(notificationDateOf(notification), now);
    const unread = notificationIsRead(notification) === false;
    const left = ` ${unread ? '•' : ' '} ${when.padEnd(narrow ? 7 : 10)} `;
    out.push(`${unread ? colors.yellow(left) : left}${fit(notificationTitle(notification), width - left.length)}`);
  }
  out.push('');

  out.push(mirrorLine(status.mirror, now, colors, narrow));
  return `${out.map((line) => line.trimEnd()).join('\n')}\n`;
}

function mirrorLine(mirror: StatusShown['mirror'], now: number, colors: Colors, narrow: boolean): string {
  if (mirror === null)
    return colors.dim(narrow ? 'No mirror: lk sync makes one' : 'No local mirror: `lk sync` makes one (for --offline, lk sql, lk report)');
  if (mirror.needsNode !== undefined)
    return colors.yellow(
      narrow
        ? `Mirror here; reading it needs Node ${mirror.needsNode}`
        : `Mirror here, but reading it needs Node ${mirror.needsNode} or later (this is ${process.versions.node}).\n${NEWER_NODE_WAYS}`,
    );
  const at = mirror.syncedAt === null ? Number.NaN : Date.parse(mirror.syncedAt);
  if (Number.isNaN(at)) return colors.yellow(narrow ? 'Mirror: last sync unknown: lk sync' : 'Mirror: its last sync is unknown: run `lk sync`');
  const when = shortDate(mirror.syncedAt, now);
  if (now - at > MIRROR_OLD_MS)
    return colors.yellow(narrow ? `Mirror synced ${when}: lk sync` : `Mirror synced ${when}: run \`lk sync\` to refresh it`);
  return colors.dim(`Mirror synced ${when}`);
}
