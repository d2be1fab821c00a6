import { firstOf, getPath } from '../util/object-path.js';

/**
 * A history event (GET /v1/history). docs/api.md fixes `cycle` and a nullable `date`; its kind the sandbox calls
 * `kind`, its alt variant `type`, lk convert's exports `event`. Its season and episode are read by items/calendar.ts
 * (seasonOf, episodeOf), its entry and work by items/entry.ts and work.ts, as for a calendar item.
 */

export const EVENT_KIND_PATHS = ['kind', 'type', 'event'] as const;

export const eventKindOf = (event: unknown): unknown => firstOf(event, EVENT_KIND_PATHS);

/** When it happened: docs/api.md's `date` (null: undated), else another instance's spelling. */
export function eventDateOf(event: unknown): unknown {
  const date = getPath(event, 'date');
  return date === null ? null : firstOf(event, ['date', 'at', 'watchedAt', 'occurredAt']);
}

/** Its cycle (docs/api.md: a rewatch is cycle 2), else another instance's spelling. */
export const eventCycleOf = (event: unknown): unknown => firstOf(event, ['cycle', 'cycleNumber', 'round']);

/** Minutes played or listened, pages read: a session's figures. */
export const eventMinutesOf = (event: unknown): unknown => getPath(event, 'minutes');
export const eventPagesOf = (event: unknown): unknown => getPath(event, 'pages');
