import { firstOf, getPath } from '../util/object-path.js';
import { firstCount, instantOf, text } from './values.js';

/**
 * A calendar item (GET /v1/calendar: an episode of a followed show), and the episode fields an event or a list item
 * carries too. docs/api.md fixes `episodesBehind` (and the sandbox sends `season`, `episode`, `title`, `airsAt`, its
 * alt variant `airDate`); every other spelling below is one lk has read somewhere (the calendar's table, its ICS feed,
 * lk notify, lk status, the mirror's columns, lk convert), gathered here so that every surface reads all of them.
 */

/** Where an episode's air time is, first present first: an ISO date-time, or a bare date (an all-day event). */
export const AIR_TIME_PATHS = ['airsAt', 'airDate', 'airdate', 'date'] as const;
/** Where the show's title is. */
export const SHOW_TITLE_PATHS = ['show.title', 'work.title', 'show.name', 'showTitle'] as const;
/** Where an episode's season number is: flat, in a season object, in an episode object. */
export const SEASON_PATHS = ['season', 'season.number', 'episode.season', 'seasonNumber'] as const;
/** Where an episode's number is: in an episode object, flat. */
export const EPISODE_PATHS = ['episode.number', 'episode', 'episodeNumber', 'number'] as const;
/** Where an episode's own title is. */
export const EPISODE_TITLE_PATHS = ['title', 'episode.title', 'episodeTitle'] as const;
/** The page of the episode, else its show's. */
const EPISODE_PAGE_PATHS = ['url', 'episode.url', 'show.url', 'work.url'] as const;
/** The show's page. */
const SHOW_PAGE_PATHS = ['show.url', 'work.url'] as const;
/** How long an episode runs, in minutes: its own, else its show's usual. */
const RUNTIME_PATHS = ['runtimeMinutes', 'runtime', 'episode.runtimeMinutes', 'show.episodeRuntimeMinutes', 'work.episodeRuntimeMinutes'] as const;

/** The air time as the server wrote it (any value; a caller parses it). */
export const airTimeOf = (item: unknown): unknown => firstOf(item, AIR_TIME_PATHS);

/** When a calendar item airs, in milliseconds. */
export const airsAtOf = (item: unknown): number | undefined => instantOf(airTimeOf(item));

/** The show a calendar item is an episode of. */
export const showTitleOf = (item: unknown): string | null => text(firstOf(item, SHOW_TITLE_PATHS));

/** The season number, when the item says it under any spelling. */
export const seasonOf = (item: unknown): number | undefined => firstCount(item, SEASON_PATHS);

/** The episode number, when the item says it under any spelling. */
export const episodeOf = (item: unknown): number | undefined => firstCount(item, EPISODE_PATHS);

/** The episode's own title (a spoiler, some say: lk calendar --format ics --spoiler-free leaves it out). */
export const episodeTitleOf = (item: unknown): unknown => firstOf(item, EPISODE_TITLE_PATHS);

/** The episode's page, else its show's. */
export const episodePageOf = (item: unknown): unknown => firstOf(item, EPISODE_PAGE_PATHS);

/** The show's page. */
export const showPageOf = (item: unknown): unknown => firstOf(item, SHOW_PAGE_PATHS);

/** The episode's runtime in minutes, as sent. */
export const runtimeMinutesOf = (item: unknown): unknown => firstOf(item, RUNTIME_PATHS);

/** Aired episodes of the show not yet seen (docs/api.md names it), as sent. */
export const episodesBehindOf = (item: unknown): unknown => getPath(item, 'episodesBehind');
