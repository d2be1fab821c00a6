import type { NextItem } from '../overview/next.js';
import { entryProgressOf } from '../items/entry.js';
import { progressText } from '../output/wording/views.js';
import type { DomainCount } from '../mirror/site-reads.js';
import type { DiaryEvent, PublishedList, SiteHead } from '../readings/site.js';
import { html, linkFrom, page } from './layout.js';

/** The pages of lk publish, each made from the engine's public readings (src/readings/site.ts) and framed by layout.ts. */

/** A list's file: its id where that is a safe file name, else a name made from it. */
export function listFile(id: string): string {
  const safe = /^[A-Za-z0-9._~-]{1,100}$/.test(id) && !/^\.+$/.test(id) ? id : `list-${Buffer.from(id).toString('hex').slice(0, 64)}`;
  return `lists/${safe}.html`;
}

export const diaryFile = (page: number) => (page === 1 ? 'diary.html' : `diary-${page}.html`);

const DOMAIN_WORDS: Record<string, string> = { MEDIA: 'Films and series', GAMES: 'Games', BOOKS: 'Books', MUSIC: 'Music' };
const domainWord = (domain: string | null) => (domain === null ? 'Other' : (DOMAIN_WORDS[domain] ?? domain));
const words = (value: string | null) => (value === null ? '' : value.toLowerCase().replace(/_/g, ' '));
const titled = (title: string | null) => title ?? 'Untitled';

function episode(season: number | null | undefined, number: number | null | undefined): string {
  if (typeof number !== 'number') return '';
  return typeof season === 'number' ? ` S${String(season).padStart(2, '0')}E${String(number).padStart(2, '0')}` : ` E${number}`;
}

/** A title, linked to its page on the service when it has one (http(s) only). */
function titleLink(title: string | null, url: string | null): string {
  const shown = html(titled(title));
  return url !== null && /^https?:\/\//i.test(url) ? `<a href="${html(url)}">${shown}</a>` : shown;
}

/** A table's frame that scrolls on its own on a narrow screen: a region keyboard users can reach and scroll. */
const scrollRegion = (label: string) => `class="scroll" tabindex="0" role="region" aria-label="${html(label)}"`;

/** Episodes as one text: S01E05, S01E06 (or E7 without a season). */
const episodes = (events: DiaryEvent[]) =>
  events
    .map((event) => episode(event.season, event.episode).trim())
    .filter((text) => text !== '')
    .join(', ');

/**
 * Dated events as the diary shows them: a heading a day (UTC, as the dates are stored), and under it a line a work
 * and kind of event — a show's episodes of the day on one line, as lk feed groups them. Compact, so that a long
 * history stays a few dozen bytes an event: the diary's titles are not links (the index's and the lists' are).
 */
function eventDays(events: DiaryEvent[], level: 'h2' | 'h3', linked: boolean): string {
  if (events.length === 0) return '<p>No dated activity yet.</p>';
  const out: string[] = [];
  let day = '';
  let lines: DiaryEvent[][] = [];
  const flush = () => {
    if (lines.length === 0) return;
    out.push(`<${level}><time datetime="${day}">${day}</time></${level}>\n<ul>`);
    for (const group of lines) {
      const [first] = group;
      const numbered = episodes(group);
      const title = linked ? titleLink(first!.title, first!.url) : html(titled(first!.title));
      out.push(`<li>${title} <small>${html(words(first!.kind))}${numbered ? ` ${numbered}` : ''}</small></li>`);
    }
    out.push('</ul>');
    lines = [];
  };
  for (const event of events) {
    const eventDay = event.date.slice(0, 10);
    if (eventDay !== day) {
      flush();
      day = eventDay;
    }
    const last = lines.at(-1)?.[0];
    if (last && last.title === event.title && last.url === event.url && last.kind === event.kind) lines.at(-1)!.push(event);
    else lines.push([event]);
  }
  flush();
  return out.join('\n');
}

export interface IndexFacts {
  head: SiteHead;
  inProgress: NextItem[];
  recent: DiaryEvent[];
  counts: DomainCount[];
  years: number[];
  lists: PublishedList[];
  cards: { file: string; alt: string }[];
}

const PHASES = ['IN_PROGRESS', 'DONE', 'PLANNED', 'DROPPED'] as const;

function countsTable(counts: DomainCount[]): string {
  const domains = [...new Set(counts.map((count) => count.domain))];
  if (domains.length === 0) return '<p>The library is empty.</p>';
  const cell = (domain: string | null, phase: string | null) =>
    counts.filter((count) => count.domain === domain && (phase === null || count.phase === phase)).reduce((sum, count) => sum + count.count, 0);
  const rows = domains.map(
    (domain) =>
      `<tr><th scope="row">${html(domainWord(domain))}</th>${PHASES.map((phase) => `<td class="n">${cell(domain, phase)}</td>`).join('')}<td class="n">${cell(domain, null)}</td></tr>`,
  );
  return `<div ${scrollRegion('Entries by domain and phase')}><table>
<caption>Entries by domain and phase</caption>
<thead><tr><th scope="col">Domain</th>${PHASES.map((phase) => `<th scope="col" class="n">${html(words(phase))}</th>`).join('')}<th scope="col" class="n">all</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table></div>`;
}

export function indexPage(facts: IndexFacts): string {
  const { head } = facts;
  const total = facts.counts.reduce((sum, count) => sum + count.count, 0);
  const inProgress =
    facts.inProgress.length === 0
      ? '<p>Nothing in progress.</p>'
      : `<ul>\n${facts.inProgress
          .map((item) => {
            const progress = progressText(entryProgressOf(item.entry));
            const behind = item.episodesBehind ? ` · ${item.episodesBehind} episode${item.episodesBehind === 1 ? '' : 's'} to catch up` : '';
            return `<li>${html(titled(item.title))} <span class="muted">(${html(domainWord(item.domain))}${progress ? ` · ${html(progress)}` : ''}${html(behind)})</span></li>`;
          })
          .join('\n')}\n</ul>`;
  const cards =
    facts.cards.length === 0
      ? ''
      : `<section aria-labelledby="cards"><h2 id="cards">At a glance</h2>\n<div class="cards">${facts.cards
          .map((card) => `<img src="${html(card.file)}" alt="${html(card.alt)}" width="495">`)
          .join('')}</div></section>`;
  const body = `<h1>${html(head.name)}</h1>
<p>${total} entries in the library${head.username && head.username !== head.name ? ` · @${html(head.username)}` : ''}.</p>
${cards}
<section aria-labelledby="now"><h2 id="now">In progress</h2>
${inProgress}
</section>
<section aria-labelledby="recent"><h2 id="recent">Recent activity</h2>
${eventDays(facts.recent, 'h3', true)}
<p><a href="diary.html">The whole diary</a></p>
</section>
<section aria-labelledby="library"><h2 id="library">The library</h2>
${countsTable(facts.counts)}
</section>
<section aria-labelledby="more"><h2 id="more">More</h2>
<ul>
<li><a href="years.html">Years in review</a> (${facts.years.length})</li>
<li><a href="lists.html">Lists</a> (${facts.lists.length})</li>
<li><a href="feed.atom">Activity feed (Atom)</a> · <a href="feed.json">JSON Feed</a></li>
</ul>
</section>`;
  return page({ title: head.name, siteName: head.name, file: 'index.html', asOf: head.asOf, body });
}

export function diaryPage(head: SiteHead, at: { page: number; pages: number; events: DiaryEvent[] }): string {
  const file = diaryFile(at.page);
  const newer = at.page > 1 ? `<a href="${diaryFile(at.page - 1)}" rel="prev">Newer</a>` : '';
  const older = at.page < at.pages ? `<a href="${diaryFile(at.page + 1)}" rel="next">Older</a>` : '';
  const pager = at.pages > 1 ? `<nav class="pages" aria-label="Diary pages">${newer}<span>Page ${at.page} of ${at.pages}</span>${older}</nav>` : '';
  const body = `<h1>Diary${at.page > 1 ? `, page ${at.page}` : ''}</h1>
${eventDays(at.events, 'h2', false)}
${pager}`;
  return page({ title: at.page > 1 ? `Diary, page ${at.page}` : 'Diary', siteName: head.name, file, asOf: head.asOf, body });
}

export function listsPage(head: SiteHead, lists: PublishedList[]): string {
  const items = lists.map(
    (list) =>
      `<li><a href="${html(listFile(list.id))}">${html(list.name)}</a> <span class="muted">(${list.items.length} item${list.items.length === 1 ? '' : 's'})</span></li>`,
  );
  const body = `<h1>Lists</h1>\n${items.length === 0 ? '<p>No list is published.</p>' : `<ul>\n${items.join('\n')}\n</ul>`}`;
  return page({ title: 'Lists', siteName: head.name, file: 'lists.html', asOf: head.asOf, body });
}

export function listPage(head: SiteHead, list: PublishedList): string {
  const file = listFile(list.id);
  const rows = list.items.map(
    (item, index) =>
      `<tr><td class="n">${index + 1}</td><td>${titleLink(item.title, item.url)}${html(episode(item.season, item.episode))}</td><td>${html(words(item.type))}</td><td class="n">${item.year ?? ''}</td></tr>`,
  );
  const table =
    rows.length === 0
      ? '<p>This list is empty.</p>'
      : `<div ${scrollRegion(`${list.name}, in its order`)}><table>
<caption>${html(list.name)}, in its order</caption>
<thead><tr><th scope="col" class="n">#</th><th scope="col">Title</th><th scope="col">Type</th><th scope="col" class="n">Year</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table></div>`;
  const body = `<h1>${html(list.name)}</h1>
${list.description ? `<p>${html(list.description)}</p>\n` : ''}${table}
<p><a href="${html(linkFrom(file, 'lists.html'))}">All lists</a></p>`;
  return page({ title: list.name, siteName: head.name, file, asOf: head.asOf, body });
}

export function yearsPage(head: SiteHead, years: number[]): string {
  const items = years.map((year) => `<li><a href="year/${year}.html">${year}</a></li>`);
  const body = `<h1>Years in review</h1>\n${items.length === 0 ? '<p>No dated activity yet.</p>' : `<ul>\n${items.join('\n')}\n</ul>`}`;
  return page({ title: 'Years in review', siteName: head.name, file: 'years.html', asOf: head.asOf, body });
}
