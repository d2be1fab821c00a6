import { cellText } from './cell.js';
import { shortDate } from './dates.js';
import { getPath } from './fields.js';
import { paintPhase } from './style.js';
import type { Column, View } from './view.js';

const str = (value: unknown): string => (value === undefined || value === null ? '' : cellText(value));

/** Title of a work, whatever the resource nests it under. */
export const titleColumn = (path = 'work.title'): Column => ({ header: 'Title', path, flex: true });

/** "WATCHING · IN_PROGRESS": the domain status and the phase it maps to, coloured by phase. */
export const statusColumn: Column = {
  header: 'Status',
  path: 'status',
  display: (item) => {
    const status = str(getPath(item, 'status'));
    const phase = str(getPath(item, 'phase'));
    return phase && phase !== status ? `${status} · ${phase}` : status;
  },
  paint: (text, item, colors) => paintPhase(text, getPath(item, 'phase'), colors),
};

export const dateColumn = (header: string, path: string, dim = true): Column => ({
  header,
  path,
  dim,
  display: (item, ctx) => shortDate(getPath(item, path), ctx.now),
});

/** "12/24 ep", "340/512 p", "1,230 min": whatever the progress object carries, read loosely. */
export function progressText(progress: unknown): string {
  if (progress === null || typeof progress !== 'object') return str(progress);
  const p = progress as Record<string, unknown>;
  const pair = (done: unknown, total: unknown, unit: string) =>
    typeof done === 'number' ? `${done}${typeof total === 'number' ? `/${total}` : ''} ${unit}` : undefined;
  return (
    pair(p.episodes, p.total ?? p.totalEpisodes, 'ep') ??
    pair(p.pages, p.total ?? p.totalPages, 'p') ??
    (typeof p.minutes === 'number' ? `${p.minutes.toLocaleString('en-US')} min` : undefined) ??
    (typeof p.current === 'number' ? `${p.current}${typeof p.total === 'number' ? `/${p.total}` : ''}${typeof p.unit === 'string' ? ` ${p.unit}` : ''}` : '')
  );
}

export const entryView: View = {
  noun: ['entry', 'entries'],
  columns: [
    titleColumn(),
    { header: 'Type', path: 'work.type', dim: true },
    statusColumn,
    { header: 'Rating', path: 'rating' },
    { header: 'Progress', path: 'progress', display: (item) => progressText(getPath(item, 'progress')) },
    dateColumn('Added', 'dates.added'),
    { header: 'ID', path: 'id', dim: true },
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
    { header: 'Kind', path: 'kind' },
    titleColumn(),
    { header: 'Detail', path: 'detail', display: (item) => eventDetail(item) },
    { header: 'Cycle', path: 'cycle', dim: true },
  ],
};
