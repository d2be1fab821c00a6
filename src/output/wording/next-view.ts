import { entryProgressOf } from '../../items/entry.js';
import { pageOf } from '../../items/page.js';
import type { View } from '../formats/view.js';
import { dateColumn, progressText } from './views.js';

/** The entry an item of lk next carries whole (lk's own field, overview/next.ts). */
const entryOf = (item: unknown): unknown => (item !== null && typeof item === 'object' ? (item as { entry?: unknown }).entry : undefined);

const lastActive = dateColumn('Last active', 'lastActivity', false);

/** `lk next`: its items carry the entry whole (`entry`) beside what was worked out for it (lastActivity, episodesBehind…). */
export const nextView: View = {
  noun: ['entry in progress', 'entries in progress'],
  columns: [
    { header: 'Title', path: 'title', flex: true, link: (item) => pageOf(entryOf(item)) },
    { header: 'Domain', path: 'domain', dim: true },
    {
      header: 'Progress',
      path: 'entry.progress',
      value: (item) => progressText(entryProgressOf(entryOf(item)), String),
      display: (item) => progressText(entryProgressOf(entryOf(item))),
    },
    { ...lastActive, display: (item, ctx) => lastActive.display!(item, ctx) || 'never' },
    { header: 'Behind', path: 'episodesBehind', align: 'right' },
    // "in 3h", "in 6d": when to look again, short enough to keep beside the rest at 80 columns.
    dateColumn('Next airing', 'nextAiring', false),
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
