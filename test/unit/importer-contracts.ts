/**
 * What each importer takes, written down from the importers themselves and independently of src/convert: the header
 * rows and value domains of Yamtrack's CSV (its import_yamtrack.csv mock and forms), MyAnimeList's XML (the
 * community's specification and MAL's exports), Letterboxd's documented import columns and Goodreads' export as
 * BookWyrm and Yamtrack read it. Each function parses a file with that format's rules and lists every violation; a
 * file the importer takes whole has none. Changing a column name, a date format or a value domain in src/convert
 * makes these lists non-empty.
 */
import { parse } from 'csv-parse/sync';
import { XMLParser, XMLValidator } from 'fast-xml-parser';

type Row = Record<string, string>;

export const YAMTRACK_HEADER =
  'media_id,source,media_type,title,image,season_number,episode_number,score,progress,status,start_date,end_date,notes,progressed_at';
export const LETTERBOXD_HEADER = 'LetterboxdURI,tmdbID,imdbID,Title,Year,WatchedDate,Rating,Rewatch,Tags,Review';
export const GOODREADS_HEADER =
  'Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,Publisher,Binding,Number of Pages,Year Published,Original Publication Year,Date Read,Date Added,Bookshelves,Bookshelves with positions,Exclusive Shelf,My Review,Spoiler,Private Notes,Read Count,Owned Copies';
export const MAL_ANIME_TAGS = [
  'series_animedb_id',
  'series_title',
  'series_type',
  'series_episodes',
  'my_id',
  'my_watched_episodes',
  'my_start_date',
  'my_finish_date',
  'my_rated',
  'my_score',
  'my_storage',
  'my_storage_value',
  'my_status',
  'my_comments',
  'my_times_watched',
  'my_rewatch_value',
  'my_priority',
  'my_tags',
  'my_rewatching',
  'my_rewatching_ep',
  'my_discuss',
  'my_sns',
  'update_on_import',
];

const YAMTRACK_TYPES = ['movie', 'tv', 'season', 'episode', 'anime', 'manga', 'game', 'book', 'comic'];
const YAMTRACK_SOURCES = ['tmdb', 'mal', 'igdb', 'openlibrary', 'hardcover', 'comicvine', 'mangaupdates', 'manual'];
const YAMTRACK_STATUSES = ['Completed', 'In progress', 'Planning', 'Paused', 'Dropped'];
const MAL_TYPES = ['TV', 'OVA', 'Movie', 'Special', 'ONA', 'Music', 'TV Special', 'CM', 'PV', 'Unknown'];
const MAL_STATUSES = ['Watching', 'Completed', 'On-Hold', 'Dropped', 'Plan to Watch'];
const GOODREADS_SHELVES = ['read', 'currently-reading', 'to-read'];

/** Django's parse_datetime of what lk writes: an ISO 8601 UTC date-time. */
const isoDateTime = (value: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(value) && !Number.isNaN(Date.parse(value));
const realDay = (value: string, separator: string) => {
  const match = new RegExp(`^(\\d{4})${separator}(\\d{2})${separator}(\\d{2})$`).exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.getUTCMonth() === Number(match[2]) - 1 && date.getUTCDate() === Number(match[3]);
};
const whole = (value: string) => /^\d+$/.test(value);

function csv(content: string): { header: string; rows: Row[] } {
  // The importers read with Python's csv module / Ruby's CSV: RFC 4180, a header row.
  return { header: content.slice(0, content.indexOf('\n')), rows: parse(content, { columns: true, relax_column_count: false }) as Row[] };
}

export function yamtrackViolations(content: string): string[] {
  const { header, rows } = csv(content);
  const out: string[] = [];
  if (header !== YAMTRACK_HEADER) out.push(`header: ${header}`);
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    const bad = (what: string) => out.push(`row ${index + 1} (${row.title}): ${what}`);
    if (!YAMTRACK_TYPES.includes(row.media_type!)) bad(`media_type ${row.media_type}`);
    if (!YAMTRACK_SOURCES.includes(row.source!)) bad(`source "${row.source}" (an empty one is a title search)`);
    if (row.media_id === '') bad('no media_id: a title search that finds nothing aborts the import');
    if (row.media_type === 'episode' ? row.status !== '' : !YAMTRACK_STATUSES.includes(row.status!)) bad(`status "${row.status}"`);
    if (row.score !== '' && !(/^\d+(\.\d)?$/.test(row.score!) && Number(row.score) <= 10)) bad(`score ${row.score}`);
    for (const column of ['start_date', 'end_date', 'progressed_at'])
      if (row[column] !== '' && !isoDateTime(row[column]!)) bad(`${column} ${row[column]}`);
    if (row.media_type === 'game' && row.progress !== '' && !/^\d+:[0-5]\d$/.test(row.progress!)) bad(`game progress ${row.progress}`);
    if (['anime', 'book', 'manga'].includes(row.media_type!) && row.progress !== '' && !whole(row.progress!)) bad(`progress ${row.progress}`);
    const show = `${row.source}:${row.media_id}`;
    if (row.media_type === 'tv') seen.add(show);
    if (row.media_type === 'season') {
      if (!whole(row.season_number!)) bad(`season_number ${row.season_number}`);
      if (!seen.has(show)) bad('a season row before its tv row');
      seen.add(`${show}:${row.season_number}`);
    }
    if (row.media_type === 'episode') {
      if (!whole(row.season_number!) || !whole(row.episode_number!)) bad(`episode ${row.season_number}x${row.episode_number}`);
      if (!seen.has(`${show}:${row.season_number}`)) bad('an episode row before its season row');
    }
  });
  return out;
}

export function malViolations(xml: string): string[] {
  const out: string[] = [];
  const valid = XMLValidator.validate(xml);
  if (valid !== true) return [`not XML: ${valid.err.msg}`];
  if (!xml.startsWith('<?xml version="1.0" encoding="UTF-8" ?>\n<myanimelist>')) out.push('no XML declaration and <myanimelist> root');
  const doc = new XMLParser({ parseTagValue: false, trimValues: false }).parse(xml) as { myanimelist: { myinfo: Row; anime?: Row | Row[] } };
  if (doc.myanimelist.myinfo?.user_export_type !== '1') out.push('myinfo: user_export_type is not 1 (anime)');
  const anime = ([] as Row[]).concat(doc.myanimelist.anime ?? []);
  const blocks = xml.split('<anime>').slice(1);
  anime.forEach((row, index) => {
    const bad = (what: string) => out.push(`anime ${index + 1} (${row.series_title}): ${what}`);
    const tags = [...blocks[index]!.matchAll(/<(\w+)>/g)].map((match) => match[1]);
    if (tags.join(',') !== MAL_ANIME_TAGS.join(',')) bad(`tags ${tags.join(',')}`);
    if (!/^[1-9]\d*$/.test(row.series_animedb_id!)) bad(`series_animedb_id ${row.series_animedb_id}: MAL matches on the id alone`);
    if (!MAL_TYPES.includes(row.series_type!)) bad(`series_type ${row.series_type}`);
    if (!MAL_STATUSES.includes(row.my_status!)) bad(`my_status ${row.my_status}`);
    for (const tag of ['series_episodes', 'my_watched_episodes', 'my_times_watched', 'my_id'] as const)
      if (!whole(row[tag]!)) bad(`${tag} ${row[tag]}`);
    if (!(whole(row.my_score!) && Number(row.my_score) <= 10)) bad(`my_score ${row.my_score}`);
    for (const tag of ['my_start_date', 'my_finish_date'] as const)
      if (row[tag] !== '0000-00-00' && !realDay(row[tag]!, '-')) bad(`${tag} ${row[tag]}`);
    if (!['Low', 'Medium', 'High'].includes(row.my_priority!)) bad(`my_priority ${row.my_priority}`);
    if (!['default', 'allow', 'ask_every_time', 'deny'].includes(row.my_sns!)) bad(`my_sns ${row.my_sns}`);
    for (const tag of ['update_on_import', 'my_rewatching', 'my_discuss'] as const) if (!['0', '1'].includes(row[tag]!)) bad(`${tag} ${row[tag]}`);
  });
  return out;
}

export function letterboxdViolations(content: string): string[] {
  const { header, rows } = csv(content);
  const out: string[] = [];
  if (header !== LETTERBOXD_HEADER) out.push(`header: ${header}`);
  rows.forEach((row, index) => {
    const bad = (what: string) => out.push(`row ${index + 1} (${row.Title}): ${what}`);
    if (row.tmdbID === '' && row.imdbID === '' && row.LetterboxdURI === '' && row.Title === '') bad('nothing to match on');
    if (row.tmdbID !== '' && !whole(row.tmdbID!)) bad(`tmdbID ${row.tmdbID}`);
    if (row.imdbID !== '' && !/^tt\d+$/.test(row.imdbID!)) bad(`imdbID ${row.imdbID}`);
    if (row.Year !== '' && !/^\d{4}$/.test(row.Year!)) bad(`Year ${row.Year}`);
    if (row.WatchedDate !== '' && !realDay(row.WatchedDate!, '-')) bad(`WatchedDate ${row.WatchedDate}`);
    const stars = Number(row.Rating);
    if (row.Rating !== '' && !(stars >= 0.5 && stars <= 5 && Number.isInteger(stars * 2))) bad(`Rating ${row.Rating}`);
    if (!['', 'true', 'false'].includes(row.Rewatch!) || (row.Rewatch !== '' && row.WatchedDate === '')) bad(`Rewatch ${row.Rewatch}`);
  });
  return out;
}

export function goodreadsViolations(content: string): string[] {
  const { header, rows } = csv(content);
  const out: string[] = [];
  if (header !== GOODREADS_HEADER) out.push(`header: ${header}`);
  rows.forEach((row, index) => {
    const bad = (what: string) => out.push(`row ${index + 1} (${row.Title}): ${what}`);
    if (row.Title === '' && row.ISBN === '=""' && row.ISBN13 === '=""') bad('nothing to match on');
    if (!GOODREADS_SHELVES.includes(row['Exclusive Shelf']!)) bad(`Exclusive Shelf ${row['Exclusive Shelf']}`);
    if (!/^[0-5]$/.test(row['My Rating']!)) bad(`My Rating ${row['My Rating']}`);
    for (const column of ['Date Read', 'Date Added']) if (row[column] !== '' && !realDay(row[column]!, '/')) bad(`${column} ${row[column]}`);
    if (!/^="(\d{9}[\dX])?"$/.test(row.ISBN!)) bad(`ISBN ${row.ISBN}`);
    if (!/^="(\d{13})?"$/.test(row.ISBN13!)) bad(`ISBN13 ${row.ISBN13}`);
    if (!whole(row['Read Count']!)) bad(`Read Count ${row['Read Count']}`);
    if (row['Number of Pages'] !== '' && !whole(row['Number of Pages']!)) bad(`Number of Pages ${row['Number of Pages']}`);
  });
  return out;
}

export const CONTRACTS = { yamtrack: yamtrackViolations, mal: malViolations, letterboxd: letterboxdViolations, goodreads: goodreadsViolations };
