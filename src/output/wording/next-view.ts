import { shortDate } from '../formats/dates.js';
import { getPath } from '../../util/object-path.js';
import type { View } from '../formats/view.js';
import { progressText } from './views.js';

/** `lk next`: its items carry the entry whole (`entry`) beside what was worked out for it (lastActivity, episodesBehind…). */
export const nextView: View = {
  noun: ['entry in progress', 'entries in progress'],
  columns: [
    { header: 'Title', path: 'title', flex: true, link: (item) => getPath(item, 'entry.url') ?? getPath(item, 'entry.work.url') },
    { header: 'Domain', path: 'domain', dim: true },
    {
      header: 'Progress',
      path: 'entry.progress',
      value: (item) => progressText(getPath(item, 'entry.progress'), String),
      display: (item) => progressText(getPath(item, 'entry.progress')),
    },
    { header: 'Last active', path: 'lastActivity', display: (item, ctx) => shortDate(getPath(item, 'lastActivity'), ctx.now) || 'never' },
    { header: 'Behind', path: 'episodesBehind', align: 'right' },
    // "in 3h", "in 6d": when to look again, short enough to keep beside the rest at 80 columns.
    { header: 'Next airing', path: 'nextAiring', display: (item, ctx) => shortDate(getPath(item, 'nextAiring'), ctx.now) },
    { header: 'ID', path: 'id', dim: true, id: true },
  ],
  fields: [
    'id',
    'title',
    'domain',
    'lastActivity',
    'episodesBehind',
    'nextAiring',
    'entry.status',
    'entry.progress.episodes',
    'entry.progress.total',
  ],
};
