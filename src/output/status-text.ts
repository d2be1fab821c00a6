import type { Colors } from './colors.js';
import { shortDate, shortDateTime } from './dates.js';
import { cellText } from './cell.js';
import { sanitizeText } from './sanitize.js';
import { firstOf } from '../util/object-path.js';
import { formatCount } from '../util/units.js';
import { eventDetail, isRead } from './views.js';
import { displayWidth, truncate } from './width.js';

/** What `lk status` shows (its --json object, schema version 1), as src/overview/status.ts makes it. */
interface StatusShown {
  inProgress: { total: number; byDomain: Record<string, number> };
  activity: { last7Days: number; last30Days: number; thisYear: number };
  upcoming: { title: string | null; season: number | null; episode: number | null; airsAt: string }[];
  notifications: { latest: unknown[] };
  mirror: { syncedAt: string | null } | null;
}

/** A mirror older than this gets a hint to run lk sync. */
export const MIRROR_OLD_MS = 24 * 3_600_000;

/**
 * `lk status` on a terminal (and in a pipe without --json): one screen as `gh status` lays out its own, a heading
 * per part, every line cut to the width (80 columns reads as designed, 50 still reads: shorter labels, titles cut).
 */
export function statusText(status: StatusShown, display: { now: number; colors: Colors }, width: number): string {
  const { colors, now } = display;
  const narrow = width < 64;
  const heading = (text: string) => colors.bold(text);
  const fit = (line: string) => (displayWidth(line) <= width ? line : truncate(line, width));
  const out: string[] = [];

  const domains = Object.entries(status.inProgress.byDomain)
    .filter(([, count]) => count > 0)
    .map(([domain, count]) => `${domain} ${formatCount(count)}`);
  out.push(heading('In progress'));
  out.push(fit(`  ${formatCount(status.inProgress.total)}${domains.length > 0 ? colors.dim(`  ${domains.join(' · ')}`) : ''}`));
  out.push('');

  const { last7Days, last30Days, thisYear } = status.activity;
  out.push(heading('Activity'));
  out.push(
    fit(
      narrow
        ? `  7 days ${formatCount(last7Days)} · 30 days ${formatCount(last30Days)} · year ${formatCount(thisYear)}`
        : `  ${formatCount(last7Days)} in the last 7 days · ${formatCount(last30Days)} in 30 days · ${formatCount(thisYear)} this year`,
    ),
  );
  out.push('');

  out.push(heading('Airing in the next 7 days'));
  if (status.upcoming.length === 0) out.push(colors.dim('  nothing'));
  for (const item of status.upcoming.slice(0, 8)) {
    const when = shortDateTime(item.airsAt, now);
    const code = eventDetail(item);
    const left = `  ${narrow ? when.replace(/ \(.*\)$/, '') : when}  `;
    const right = code ? `  ${code}` : '';
    const room = width - displayWidth(left) - displayWidth(right);
    out.push(fit(`${colors.dim(left)}${truncate(sanitizeText(item.title ?? ''), Math.max(8, room))}${right}`));
  }
  if (status.upcoming.length > 8) out.push(colors.dim(`  and ${status.upcoming.length - 8} more: lk calendar`));
  out.push('');

  out.push(heading('Notifications'));
  if (status.notifications.latest.length === 0) out.push(colors.dim('  none'));
  for (const notification of status.notifications.latest) {
    const when = shortDate(firstOf(notification, ['createdAt', 'date']), now);
    const title = cellText(firstOf(notification, ['title', 'subject', 'message', 'text', 'body']) ?? '');
    const mark = isRead(notification) === false ? colors.yellow('•') : ' ';
    const left = ` ${mark} ${when.padEnd(narrow ? 7 : 10)} `;
    out.push(fit(`${left}${truncate(sanitizeText(title), Math.max(8, width - displayWidth(left)))}`));
  }
  out.push('');

  out.push(mirrorLine(status.mirror, now, colors, narrow));
  return `${out.map((line) => line.trimEnd()).join('\n')}\n`;
}

function mirrorLine(mirror: StatusShown['mirror'], now: number, colors: Colors, narrow: boolean): string {
  if (mirror === null)
    return colors.dim(narrow ? 'No mirror: lk sync makes one' : 'No local mirror: `lk sync` makes one (for --offline, lk sql, lk report)');
  const at = mirror.syncedAt === null ? undefined : Date.parse(mirror.syncedAt);
  if (at === undefined) return colors.yellow('Mirror: last sync unknown: run `lk sync`');
  const when = shortDate(mirror.syncedAt, now);
  if (now - at > MIRROR_OLD_MS)
    return colors.yellow(narrow ? `Mirror synced ${when}: lk sync` : `Mirror synced ${when}: run \`lk sync\` to refresh it`);
  return colors.dim(`Mirror synced ${when}`);
}
