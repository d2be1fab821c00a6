import { cellText } from '../formats/cell.js';
import { shortDate, shortDateTime } from '../formats/dates.js';
import {
  achievementNameOf,
  achievementDescriptionOf,
  achievementProgressOf,
  achievementUnlockedAtOf,
  ACHIEVEMENT_NAME_PATHS,
  ACHIEVEMENT_UNLOCKED_PATHS,
} from '../../items/achievement.js';
import {
  AIR_TIME_PATHS,
  airTimeOf,
  EPISODE_TITLE_PATHS,
  episodeOf,
  episodeTitleOf,
  seasonOf,
  SHOW_TITLE_PATHS,
  showPageOf,
  showTitleOf,
} from '../../items/calendar.js';
import { ENTRY_ADDED_PATHS, entryAddedAtOf, entryPhaseOf, entryProgressOf, entryStatusOf, entryTypeOf } from '../../items/entry.js';
import { EVENT_KIND_PATHS, eventDateOf, eventKindOf, eventMinutesOf, eventPagesOf } from '../../items/event.js';
import {
  LIST_ITEM_ADDED_PATHS,
  LIST_ITEM_NOTE_PATHS,
  LIST_ITEM_TITLE_PATHS,
  LIST_NAME_PATHS,
  LIST_OWNER_PATHS,
  listItemAddedAtOf,
  listItemCountOf,
  listItemNoteOf,
  listItemPageOf,
  listItemTitleOf,
  listItemTypeOf,
  listNameOf,
  listOwnerNameOf,
  listOwnerOf,
  listUpdatedAtOf,
  listCreatedAtOf,
  listVisibilityOf,
} from '../../items/list.js';
import {
  NOTIFICATION_DATE_PATHS,
  NOTIFICATION_HEADLINE_PATHS,
  notificationBodyOf,
  notificationDateOf,
  notificationHeadlineOf,
  notificationIsRead,
  notificationKindOf,
} from '../../items/notification.js';
import { ownPageOf, pageOf } from '../../items/page.js';
import {
  REVIEW_DATE_PATHS,
  REVIEW_HEADLINE_PATHS,
  REVIEW_RATING_PATHS,
  REVIEW_WORK_TITLE_PATHS,
  reviewDateOf,
  reviewHeadlineOf,
  reviewLikesOf,
  reviewRatingOf,
  reviewWorkTitleOf,
} from '../../items/review.js';
import { columnValue } from '../formats/view.js';
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

/** "WATCHING · IN_PROGRESS": the domain status and the phase it maps to, coloured by phase. */
export const statusColumn: Column = {
  header: 'Status',
  path: 'status',
  display: (item) => {
    const status = str(entryStatusOf(item));
    // docs/api.md (Statuses and phases) maps every status to its phase: an instance that sends no phase still gets it shown.
    const phase = str(entryPhaseOf(item) ?? phaseOf(entryStatusOf(item)));
    return phase && phase !== status ? `${status} · ${phase}` : status;
  },
  expected: ['WATCHING · IN_PROGRESS', 'UP_TO_DATE · DONE', 'COMPLETED · DONE', 'TO_LISTEN · PLANNED'],
  // By the phase the entry carries, else by the phase its status maps to (docs/api.md, Statuses and phases).
  paint: (text, item, colors) => paintPhase(text, entryPhaseOf(item) ?? entryStatusOf(item), colors),
};

/** A date at `path` (a field lk itself makes, or one docs/api.md names): relative in a table, exact in a pipe. */
export const dateColumn = (header: string, path: string, dim = true): Column => ({
  header,
  path,
  dim,
  display: (item, ctx) => shortDate(columnValue({ header, path }, item), ctx.now),
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

/**
 * A column named by the first of a field's spellings (`paths[0]`, src/items' list: what --fields names), whose value
 * is the field as src/items reads it (`read`, the first of its spellings present), in table and pipe.
 */
const looseColumn = (header: string, paths: readonly string[], read: (item: unknown) => unknown, extra: Partial<Column> = {}): Column => ({
  header,
  path: paths[0]!,
  value: read,
  display: (item) => labelOf(read(item)),
  ...extra,
});

/** The same for a date: relative in a table, the server's exact text in a pipe. */
const looseDateColumn = (header: string, paths: readonly string[], read: (item: unknown) => unknown, dim = true): Column => ({
  header,
  path: paths[0]!,
  dim,
  value: read,
  display: (item, ctx) => shortDate(read(item), ctx.now),
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
    looseColumn('Type', ['work.type'], entryTypeOf, { dim: true }),
    statusColumn,
    { header: 'Rating', path: 'rating', align: 'right' },
    {
      header: 'Progress',
      path: 'progress',
      value: (item) => progressText(entryProgressOf(item), exact),
      display: (item) => progressText(entryProgressOf(item)),
    },
    looseDateColumn('Added', ENTRY_ADDED_PATHS, entryAddedAtOf),
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
  const season = seasonOf(event);
  const number = episodeOf(event);
  if (season !== undefined && number !== undefined) {
    return `S${String(season).padStart(2, '0')}E${String(number).padStart(2, '0')}`;
  }
  const minutes = eventMinutesOf(event);
  if (typeof minutes === 'number') return `${minutes} min`;
  const pages = eventPagesOf(event);
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
        const date = eventDateOf(item);
        return date === null ? 'undated' : shortDate(date, ctx.now);
      },
    },
    looseColumn('Kind', EVENT_KIND_PATHS, eventKindOf),
    titleColumn(),
    { header: 'Detail', path: 'detail', value: (item) => eventDetail(item), display: (item) => eventDetail(item) },
    { header: 'Cycle', path: 'cycle', dim: true },
  ],
  // What eventDetail reads: episodes carry season and episode, sessions minutes or pages.
  fields: ['id', 'kind', 'date', 'cycle', 'work.title', 'season', 'episode', 'minutes', 'pages'],
};

/** "12 items" whether the list carries a count or the items themselves. */
function itemCount(list: unknown, number: NumberText = localised): string {
  const count = listItemCountOf(list);
  return count === undefined ? '' : number(count);
}

export const listView: View = {
  noun: ['list', 'lists'],
  columns: [
    looseColumn('Name', LIST_NAME_PATHS, listNameOf, { flex: true, link: ownPageOf }),
    { header: 'Items', path: 'itemCount', align: 'right', value: (item) => itemCount(item, exact), display: (item) => itemCount(item) },
    looseColumn('Visibility', ['visibility'], listVisibilityOf, { dim: true }),
    // A username, or an object naming the owner: its label, never its JSON.
    looseColumn('Owner', LIST_OWNER_PATHS, listOwnerNameOf, {
      dim: true,
      value: (item) => labelOf(listOwnerOf(item)),
    }),
    // When it last changed: its update, else (never updated) its creation.
    looseDateColumn('Updated', ['updatedAt'], (item) => listUpdatedAtOf(item) ?? listCreatedAtOf(item)),
    { header: 'ID', path: 'id', dim: true, id: true },
  ],
};

/** S02 for a season, S02E05 for an episode. */
function listItemDetail(item: unknown): string {
  const episode = eventDetail(item);
  if (episode) return episode;
  const season = seasonOf(item);
  return season === undefined ? '' : `S${String(season).padStart(2, '0')}`;
}

function episodeTitle(item: unknown): unknown {
  return listItemTypeOf(item) === 'episode' ? episodeTitleOf(item) : undefined;
}

export const listItemView: View = {
  noun: ['item', 'items'],
  columns: [
    looseColumn('Title', LIST_ITEM_TITLE_PATHS, listItemTitleOf, { flex: true, link: listItemPageOf }),
    { header: 'Type', path: 'type', value: (item) => listItemTypeOf(item), display: (item) => listItemTypeOf(item) },
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
    looseColumn('Note', LIST_ITEM_NOTE_PATHS, listItemNoteOf, { dim: true, flex: true }),
    looseDateColumn('Added', LIST_ITEM_ADDED_PATHS, listItemAddedAtOf),
  ],
};

export const calendarView: View = {
  noun: ['upcoming episode', 'upcoming episodes'],
  columns: [
    looseColumn('Airs', AIR_TIME_PATHS, airTimeOf, {
      display: (item, ctx) => shortDateTime(airTimeOf(item), ctx.now),
    }),
    looseColumn('Show', SHOW_TITLE_PATHS, showTitleOf, { flex: true, link: showPageOf }),
    { header: 'Episode', path: 'episode', value: (item) => eventDetail(item), display: (item) => eventDetail(item) },
    looseColumn('Title', EPISODE_TITLE_PATHS, episodeTitleOf, { dim: true, flex: true }),
    { header: 'Behind', path: 'episodesBehind', align: 'right' },
  ],
};

export const reviewView: View = {
  noun: ['review', 'reviews'],
  columns: [
    looseColumn('Title', REVIEW_WORK_TITLE_PATHS, reviewWorkTitleOf, { flex: true, link: pageOf }),
    looseColumn('Rating', REVIEW_RATING_PATHS, reviewRatingOf),
    looseColumn('Headline', REVIEW_HEADLINE_PATHS, reviewHeadlineOf, { dim: true, flex: true }),
    looseColumn('Likes', ['likes'], reviewLikesOf, { dim: true, align: 'right' }),
    looseDateColumn('Written', REVIEW_DATE_PATHS, reviewDateOf),
    { header: 'ID', path: 'id', dim: true, id: true },
  ],
};

/** "3/10" from {current, target} (or {current, total}), wherever the achievement keeps them. */
function achievementProgress(achievement: unknown, number: NumberText = localised): string {
  const { current, target, raw } = achievementProgressOf(achievement);
  if (typeof current !== 'number') return str(typeof raw === 'object' ? undefined : raw);
  return typeof target === 'number' ? `${number(current)}/${number(target)}` : number(current);
}

export const achievementView: View = {
  noun: ['achievement', 'achievements'],
  columns: [
    looseColumn('Achievement', ACHIEVEMENT_NAME_PATHS, achievementNameOf, { flex: true }),
    looseColumn('Description', ['description'], achievementDescriptionOf, { dim: true, flex: true }),
    { header: 'Progress', path: 'progress', value: (item) => achievementProgress(item, exact), display: (item) => achievementProgress(item) },
    looseDateColumn('Unlocked', ACHIEVEMENT_UNLOCKED_PATHS, achievementUnlockedAtOf, false),
  ],
};

export const notificationView: View = {
  noun: ['notification', 'notifications'],
  columns: [
    looseDateColumn('Date', NOTIFICATION_DATE_PATHS, notificationDateOf, false),
    looseColumn('Kind', ['type'], notificationKindOf, { dim: true }),
    // An instance may send a title and a body, or a message alone: the message then heads the row, shown once.
    looseColumn('Title', NOTIFICATION_HEADLINE_PATHS, notificationHeadlineOf, { flex: true }),
    {
      header: 'Message',
      path: 'message',
      dim: true,
      flex: true,
      value: (item) => notificationBodyOf(item),
      display: (item) => str(notificationBodyOf(item)),
    },
    {
      header: 'Read',
      path: 'read',
      value: (item) => notificationIsRead(item),
      display: (item) => (notificationIsRead(item) === false ? 'unread' : notificationIsRead(item) === true ? 'read' : ''),
    },
  ],
};
