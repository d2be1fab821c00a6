import { cellText } from '../formats/cell.js';
import { shortDate, shortDateTime } from '../formats/dates.js';
import { firstOf, getPath } from '../../util/object-path.js';
import { paintPhase } from '../formats/style.js';
import { phaseOf } from '../../vocabulary.js';
import { labelOf } from '../formats/cell.js';
import type { Column, View } from '../formats/view.js';
import { formatCount } from '../../util/units.js';

const str = (value: unknown): string => (value === undefined || value === null ? '' : cellText(value));

/** Numbers as a table shows them (1,230) and as a pipe gets them (1230). */
type NumberText = (n: number) => string;
const localised: NumberText = formatCount;
const exact: NumberText = (n) => String(n);

/** Title of a work, whatever the resource nests it under. */
export const titleColumn = (path = 'work.title', link: Column['link'] = pageOf): Column => ({ header: 'Title', path, flex: true, link });

/** The item's own page (`url`), else its work's. */
function pageOf(item: unknown): unknown {
  return getPath(item, 'url') ?? getPath(item, 'work.url');
}

/** "WATCHING · IN_PROGRESS": the domain status and the phase it maps to, coloured by phase. */
export const statusColumn: Column = {
  header: 'Status',
  path: 'status',
  display: (item) => {
    const status = str(getPath(item, 'status'));
    // docs/api.md (Statuses and phases) maps every status to its phase: an instance that sends no phase still gets it shown.
    const phase = str(getPath(item, 'phase') ?? phaseOf(getPath(item, 'status')));
    return phase && phase !== status ? `${status} · ${phase}` : status;
  },
  expected: ['WATCHING · IN_PROGRESS', 'UP_TO_DATE · DONE', 'COMPLETED · DONE', 'TO_LISTEN · PLANNED'],
  // By the phase the entry carries, else by the phase its status maps to (docs/api.md, Statuses and phases).
  paint: (text, item, colors) => paintPhase(text, getPath(item, 'phase') ?? getPath(item, 'status'), colors),
};

export const dateColumn = (header: string, path: string, dim = true): Column => ({
  header,
  path,
  dim,
  display: (item, ctx) => shortDate(getPath(item, path), ctx.now),
});

/** "12/24 ep", "340/512 p", "1,230 min": whatever the progress object carries, read loosely. */
export function progressText(progress: unknown, number: NumberText = localised): string {
  if (progress === null || typeof progress !== 'object') return str(progress);
  const p = progress as Record<string, unknown>;
  const pair = (done: unknown, total: unknown, unit: string) =>
    typeof done === 'number' ? `${done}${typeof total === 'number' ? `/${total}` : ''} ${unit}` : undefined;
  return (
    pair(p.episodes, p.total ?? p.totalEpisodes, 'ep') ??
    pair(p.pages, p.total ?? p.totalPages, 'p') ??
    (typeof p.minutes === 'number' ? `${number(p.minutes)} min` : undefined) ??
    (typeof p.current === 'number' ? currentText(p.current, p.total, p.unit, number) : '')
  );
}

/** The body of a notification, unless the Title column already shows it. */
function notificationBody(item: unknown): unknown {
  const body = firstOf(item, ['message', 'text', 'body']);
  return firstOf(item, ['title', 'subject']) === undefined ? undefined : body;
}

/** Read or not: a `read` boolean, or a `readAt` time (null while unread); undefined when the instance says neither. */
export function isRead(item: unknown): boolean | undefined {
  const read = getPath(item, 'read');
  if (typeof read === 'boolean') return read;
  const readAt = getPath(item, 'readAt');
  if (readAt === null) return false;
  return readAt === undefined ? undefined : true;
}

/** A column named by `paths[0]` (for --fields), whose value is the first of its spellings present, in table and pipe. */
const looseColumn = (header: string, paths: string[], extra: Partial<Column> = {}): Column => ({
  header,
  path: paths[0]!,
  value: (item) => firstOf(item, paths),
  display: (item) => labelOf(firstOf(item, paths)),
  ...extra,
});

/** The same for a date: relative in a table, the server's exact text in a pipe. */
const looseDateColumn = (header: string, paths: string[], dim = true): Column => ({
  header,
  path: paths[0]!,
  dim,
  value: (item) => firstOf(item, paths),
  display: (item, ctx) => shortDate(firstOf(item, paths), ctx.now),
});

/** One spelling per unit, whatever the instance calls it: "12/24 ep", "340/512 p", "1,230 min". */
const UNIT_SHORT: Record<string, string> = {
  episode: 'ep',
  episodes: 'ep',
  ep: 'ep',
  page: 'p',
  pages: 'p',
  p: 'p',
  minute: 'min',
  minutes: 'min',
  min: 'min',
};

function currentText(current: number, total: unknown, unit: unknown, number: NumberText): string {
  const short = typeof unit === 'string' ? (UNIT_SHORT[unit.toLowerCase()] ?? unit) : '';
  if (short === 'min') return `${number(current)} min`;
  return `${current}${typeof total === 'number' ? `/${total}` : ''}${short ? ` ${short}` : ''}`;
}

export const entryView: View = {
  noun: ['entry', 'entries'],
  columns: [
    titleColumn(),
    looseColumn('Type', ['work.type', 'work.mediaType', 'work.kind'], { dim: true }),
    statusColumn,
    { header: 'Rating', path: 'rating', align: 'right' },
    {
      header: 'Progress',
      path: 'progress',
      value: (item) => progressText(getPath(item, 'progress'), exact),
      display: (item) => progressText(getPath(item, 'progress')),
    },
    looseDateColumn('Added', ['dates.added', 'addedAt', 'createdAt']),
    { header: 'ID', path: 'id', dim: true, id: true },
  ],
  // The API's fields of an entry (docs/api.md) and its work, and the progress fields of each domain (see progressText).
  fields: [
    'id',
    'work.id',
    'work.source',
    'work.sourceId',
    'work.url',
    'work.title',
    'work.type',
    'status',
    'phase',
    'rating',
    'notes',
    'dates.added',
    'progress.episodes',
    'progress.pages',
    'progress.minutes',
    'progress.total',
  ],
};

/** S02E05 for episodes; minutes, pages or nothing for the rest. */
export function eventDetail(event: unknown): string {
  const season = getPath(event, 'episode.season') ?? getPath(event, 'season');
  const number = getPath(event, 'episode.number') ?? getPath(event, 'episode');
  if (typeof season === 'number' && typeof number === 'number') {
    return `S${String(season).padStart(2, '0')}E${String(number).padStart(2, '0')}`;
  }
  const minutes = getPath(event, 'minutes');
  if (typeof minutes === 'number') return `${minutes} min`;
  const pages = getPath(event, 'pages');
  if (typeof pages === 'number') return `${pages} p`;
  return '';
}

export const historyView: View = {
  noun: ['event', 'events'],
  columns: [
    {
      header: 'Date',
      path: 'date',
      display: (item, ctx) => {
        const date = getPath(item, 'date');
        return date === null ? 'undated' : shortDate(date, ctx.now);
      },
    },
    looseColumn('Kind', ['kind', 'type']),
    titleColumn(),
    { header: 'Detail', path: 'detail', value: (item) => eventDetail(item), display: (item) => eventDetail(item) },
    { header: 'Cycle', path: 'cycle', dim: true },
  ],
  // What eventDetail reads: episodes carry season and episode, sessions minutes or pages.
  fields: ['id', 'kind', 'date', 'cycle', 'work.title', 'season', 'episode', 'minutes', 'pages'],
};

/** "12 items" whether the list carries a count or the items themselves. */
function itemCount(list: unknown, number: NumberText = localised): string {
  const count = firstOf(list, ['itemCount', 'itemsCount', 'count', 'size']);
  if (typeof count === 'number') return number(count);
  const items = getPath(list, 'items');
  return Array.isArray(items) ? number(items.length) : '';
}

export const listView: View = {
  noun: ['list', 'lists'],
  columns: [
    looseColumn('Name', ['name', 'title'], { flex: true, link: (item) => getPath(item, 'url') }),
    { header: 'Items', path: 'itemCount', align: 'right', value: (item) => itemCount(item, exact), display: (item) => itemCount(item) },
    looseColumn('Visibility', ['visibility'], { dim: true }),
    // A username, or an object naming the owner: its label, never its JSON.
    looseColumn('Owner', ['owner.username', 'owner.displayName', 'owner.name', 'owner'], {
      dim: true,
      value: (item) => labelOf(firstOf(item, ['owner'])),
    }),
    looseDateColumn('Updated', ['updatedAt', 'dates.updated', 'createdAt']),
    { header: 'ID', path: 'id', dim: true, id: true },
  ],
};

/** work, season or episode: said by the item when it says so, else read from what it carries. */
export function listItemType(item: unknown): string {
  const said = firstOf(item, ['type', 'kind', 'itemType']);
  if (typeof said === 'string') return said.toLowerCase();
  if (getPath(item, 'episode') !== undefined) return 'episode';
  if (getPath(item, 'season') !== undefined) return 'season';
  if (getPath(item, 'work') !== undefined) return 'work';
  return '';
}

/** S02 for a season, S02E05 for an episode. */
function listItemDetail(item: unknown): string {
  const episode = eventDetail(item);
  if (episode) return episode;
  const season = firstOf(item, ['season.number', 'season']);
  return typeof season === 'number' ? `S${String(season).padStart(2, '0')}` : '';
}

function episodeTitle(item: unknown): unknown {
  return listItemType(item) === 'episode' ? firstOf(item, ['title', 'episode.title']) : undefined;
}

export const listItemView: View = {
  noun: ['item', 'items'],
  columns: [
    looseColumn('Title', ['work.title', 'show.title'], { flex: true, link: (item) => getPath(item, 'work.url') }),
    { header: 'Type', path: 'type', value: (item) => listItemType(item), display: (item) => listItemType(item) },
    { header: 'Detail', path: 'season', value: (item) => listItemDetail(item), display: (item) => listItemDetail(item) },
    // Seasons carry a title too ("Season 2"), which Detail already says.
    {
      header: 'Episode title',
      path: 'title',
      dim: true,
      flex: true,
      value: (item) => episodeTitle(item),
      display: (item) => str(episodeTitle(item)),
    },
    looseColumn('Note', ['note', 'notes'], { dim: true, flex: true }),
    looseDateColumn('Added', ['addedAt', 'dates.added']),
  ],
};

export const calendarView: View = {
  noun: ['upcoming episode', 'upcoming episodes'],
  columns: [
    looseColumn('Airs', ['airsAt', 'airDate', 'airdate', 'date'], {
      display: (item, ctx) => shortDateTime(firstOf(item, ['airsAt', 'airDate', 'airdate', 'date']), ctx.now),
    }),
    looseColumn('Show', ['show.title', 'work.title'], { flex: true, link: (item) => getPath(item, 'show.url') ?? getPath(item, 'work.url') }),
    { header: 'Episode', path: 'episode', value: (item) => eventDetail(item), display: (item) => eventDetail(item) },
    looseColumn('Title', ['title', 'episode.title'], { dim: true, flex: true }),
    { header: 'Behind', path: 'episodesBehind', align: 'right' },
  ],
};

export const reviewView: View = {
  noun: ['review', 'reviews'],
  columns: [
    looseColumn('Title', ['work.title', 'entry.work.title'], { flex: true, link: pageOf }),
    looseColumn('Rating', ['rating', 'entry.rating']),
    looseColumn('Headline', ['title', 'headline', 'summary', 'body'], { dim: true, flex: true }),
    looseColumn('Likes', ['likes'], { dim: true, align: 'right' }),
    looseDateColumn('Written', ['createdAt', 'date', 'dates.created']),
    { header: 'ID', path: 'id', dim: true, id: true },
  ],
};

/** "3/10" from {current, target} (or {current, total}), wherever the achievement keeps them. */
function achievementProgress(achievement: unknown, number: NumberText = localised): string {
  const current = firstOf(achievement, ['progress.current', 'current']);
  const target = firstOf(achievement, ['progress.target', 'progress.total', 'target']);
  if (typeof current !== 'number') return str(typeof getPath(achievement, 'progress') === 'object' ? undefined : getPath(achievement, 'progress'));
  return typeof target === 'number' ? `${number(current)}/${number(target)}` : number(current);
}

export const achievementView: View = {
  noun: ['achievement', 'achievements'],
  columns: [
    looseColumn('Achievement', ['name', 'title'], { flex: true }),
    looseColumn('Description', ['description'], { dim: true, flex: true }),
    { header: 'Progress', path: 'progress', value: (item) => achievementProgress(item, exact), display: (item) => achievementProgress(item) },
    looseDateColumn('Unlocked', ['unlockedAt', 'achievedAt', 'date'], false),
  ],
};

export const notificationView: View = {
  noun: ['notification', 'notifications'],
  columns: [
    looseDateColumn('Date', ['createdAt', 'date'], false),
    looseColumn('Kind', ['type', 'kind'], { dim: true }),
    // An instance may send a title and a body, or a message alone: the message then heads the row, shown once.
    looseColumn('Title', ['title', 'subject', 'message', 'text', 'body'], { flex: true }),
    {
      header: 'Message',
      path: 'message',
      dim: true,
      flex: true,
      value: (item) => notificationBody(item),
      display: (item) => str(notificationBody(item)),
    },
    {
      header: 'Read',
      path: 'read',
      value: (item) => isRead(item),
      display: (item) => (isRead(item) === false ? 'unread' : isRead(item) === true ? 'read' : ''),
    },
  ],
};
