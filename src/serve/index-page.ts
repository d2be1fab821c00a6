import { CARD_KINDS } from '../card/index.js';
import { escapeHtml } from '../output/wording/feed-text.js';
import { ADDRESSES } from './documents.js';

/**
 * `/`: what this server offers, with the addresses to paste into a calendar app, a feed reader or a dashboard. The
 * token, when the request carried one in its query, is carried on in every link (a calendar app needs it in the URL).
 */
export interface IndexFacts {
  /** `host:port` as the client reached it (checked to be one), for the absolute webcal:// link. */
  authority: string;
  /** `?token=…` when the request had one, else ''. */
  query: string;
  /** The years the mirror has dated events in, newest first. */
  years: number[];
  syncedAt: number | undefined;
}

/** The addresses the index links as they are (the years in review and the cards are linked below them, one by one). */
const LINKS = ADDRESSES.filter((address) => !/YYYY|KIND/.test(address.path));

export function indexPage(facts: IndexFacts): string {
  const link = (path: string) => escapeHtml(`${path}${facts.query}`);
  const items = LINKS.map(({ path, what }) => `<li><a href="${link(path)}">${escapeHtml(path)}</a>: ${escapeHtml(what)}</li>`);
  const webcal = escapeHtml(`webcal://${facts.authority}/calendar.ics${facts.query}`);
  const cards = CARD_KINDS.map((kind) => `<a href="${link(`/card/${kind}.svg`)}">${kind}</a>`).join(' · ');
  const reports = facts.years.map((year) => `<a href="${link(`/report/${year}.html`)}">${year}</a>`).join(' · ');
  const synced = facts.syncedAt === undefined ? 'at an unknown time' : escapeHtml(new Date(facts.syncedAt).toISOString().replace(/\.\d+Z$/, 'Z'));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>lk serve</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40em;margin:2em auto;padding:0 1em}a{overflow-wrap:anywhere}</style>
</head>
<body>
<h1>lk serve</h1>
<p>Read-only, from the mirror synced ${synced}.</p>
<ul>
${items.join('\n')}
</ul>
<p>Subscribe in a calendar app: <a href="${webcal}">${webcal}</a></p>
<p>Year in review: ${reports || 'no dated activity yet'}</p>
<p>Cards (SVG, for a README or a dashboard): ${cards}</p>
</body>
</html>
`;
}
