import { feedReading, reviewedYears, reviewPage, yearInReview, type Review } from '../readings/composed.js';
import type { ReadingHost } from '../readings/host.js';
import { CARD_KINDS, cardSvg, type CardKind } from '../card/index.js';
import {
  diaryPage,
  diaryPageCount,
  diaryPages,
  publishedLists,
  recentEvents,
  siteCounts,
  siteHead,
  siteInProgress,
  type SiteHead,
} from '../readings/site.js';
import { diaryFile, diaryPage as diaryHtml, indexPage, listFile, listPage, listsPage, yearsPage } from './pages.js';

/**
 * lk publish's site, file by file (and lk serve's /site/, one file a request): made from the engine's readings for a
 * public host (the caller's: its projection decides what anyone may see), the same bytes for the same mirror and
 * options. Files come one at a time, so a 100,000-entry diary is never held whole.
 */

export interface SiteFile {
  /** Relative to the site's root, with `/` between folders. */
  name: string;
  data: string;
}

export interface SiteOptions {
  /** The site's name in place of the account's (lk publish --title). */
  title?: string | undefined;
  /** The site's address (lk publish --base-url): the feeds' links absolute. */
  baseUrl?: string | undefined;
  /** Dated events a diary page holds. */
  perPage?: number;
  /** The cards beside the index (cards/NAME): lk card's four, following the reader's colour scheme, unless given. */
  cards?: readonly SiteCard[];
}

export interface SiteCard {
  name: string;
  alt: string;
  svg: () => Promise<string>;
}

/** What each card shows, as its image's alternative text. */
const CARD_ALT: Record<CardKind, string> = {
  stats: 'The library at a glance: entries by domain, finished this year, the average rating',
  now: 'What is in progress',
  heatmap: 'Dated activity of the last 52 weeks, one square a day',
  year: "This year's figures",
};

/** lk card's cards, each in the auto theme (light or dark as the reader's colour scheme). */
function cardsOf(host: ReadingHost): SiteCard[] {
  return CARD_KINDS.map((kind) => ({ name: `${kind}.svg`, alt: CARD_ALT[kind], svg: () => cardSvg(host, kind, 'auto') }));
}

/** Dated events a diary page holds by default: some 50 KB a page, a few days to a few weeks of a busy library. */
export const DIARY_PAGE_SIZE = 500;

/** How many entries in progress, and recent events, the index shows. */
const INDEX_ITEMS = 12;

/** What every file needs: the site's name and date, and which years and lists it has pages for. */
interface Plan {
  head: SiteHead;
  years: number[];
  /** Each year's review, made once: its page is drawn from it. */
  reviews: Map<string, Review>;
  lists: Awaited<ReturnType<typeof publishedLists>>;
  diaryPages: number;
  perPage: number;
}

/**
 * The plan of the site. `withYears`: the years reviewed too — each year's figures, the costliest reading of the site,
 * which only the index, years.html and the years' pages need (lk serve's /site/diary-3.html makes none of them).
 */
async function planOf(host: ReadingHost, options: SiteOptions, withYears = true): Promise<Plan> {
  const head = { ...(await siteHead(host)), ...(options.title ? { name: options.title } : {}) };
  // The years with something to review (a year of dated events alone may have none): each gets its page.
  const years: number[] = [];
  const reviews = new Map<string, Review>();
  for (const year of withYears ? await reviewedYears(host) : []) {
    const review = await yearInReview(host, { year: String(year) });
    if (review.empty) continue;
    years.push(year);
    reviews.set(String(year), review);
  }
  const perPage = options.perPage ?? DIARY_PAGE_SIZE;
  return { head, years, reviews, lists: await publishedLists(host), diaryPages: await diaryPageCount(host, perPage), perPage };
}

/** Every file of the site, in the order written. */
export async function* siteFiles(host: ReadingHost, given: SiteOptions = {}): AsyncGenerator<SiteFile> {
  const options = { cards: cardsOf(host), ...given };
  const plan = await planOf(host, options);
  // The diary's pages from one pass over the history; every other file by its name.
  const diary = diaryPages(host, plan.perPage);
  for (const name of namesOf(plan, options)) {
    if (/^diary(-\d+)?\.html$/.test(name)) yield { name, data: diaryHtml(plan.head, (await diary.next()).value!) };
    else yield { name, data: (await fileOf(host, plan, options, name))! };
  }
}

/** One file of the site by its name (lk serve's /site/NAME), or undefined: no such file. */
export async function siteFile(host: ReadingHost, name: string, given: SiteOptions = {}): Promise<string | undefined> {
  const options = { cards: cardsOf(host), ...given };
  // A file that is not about the years is looked up without reviewing them (its name is among the site's either way).
  const aboutYears = name === 'index.html' || name === 'years.html' || name.startsWith('year/');
  const plan = await planOf(host, options, aboutYears);
  return namesOf(plan, options).includes(name) ? fileOf(host, plan, options, name) : undefined;
}

function namesOf(plan: Plan, options: SiteOptions): string[] {
  return [
    'index.html',
    ...Array.from({ length: plan.diaryPages }, (_, index) => diaryFile(index + 1)),
    'lists.html',
    ...plan.lists.map((list) => listFile(list.id)),
    'years.html',
    ...plan.years.map((year) => `year/${year}.html`),
    'feed.atom',
    'feed.json',
    ...(options.cards ?? []).map((card) => `cards/${card.name}`),
  ];
}

async function fileOf(host: ReadingHost, plan: Plan, options: SiteOptions, name: string): Promise<string | undefined> {
  const { head } = plan;
  if (name === 'index.html') {
    return indexPage({
      head,
      inProgress: await siteInProgress(host, INDEX_ITEMS),
      recent: await recentEvents(host, INDEX_ITEMS),
      counts: await siteCounts(host),
      years: plan.years,
      lists: plan.lists,
      cards: (options.cards ?? []).map((card) => ({ file: `cards/${card.name}`, alt: card.alt })),
    });
  }
  const diary = /^diary(?:-(\d+))?\.html$/.exec(name);
  if (diary) return diaryHtml(head, await diaryPage(host, plan.perPage, Number(diary[1] ?? 1)));
  if (name === 'lists.html') return listsPage(head, plan.lists);
  const list = plan.lists.find((candidate) => listFile(candidate.id) === name);
  if (list) return listPage(head, list);
  if (name === 'years.html') return yearsPage(head, plan.years);
  // Each year's page is lk report --year's page: one reading, two surfaces.
  const year = /^year\/(\d{4})\.html$/.exec(name)?.[1];
  const review = year === undefined ? undefined : plan.reviews.get(year);
  if (review !== undefined) return reviewPage(review);
  if (name === 'feed.atom' || name === 'feed.json') {
    return (await feedReading(host, { format: name === 'feed.atom' ? 'atom' : 'json', siteUrl: options.baseUrl })).text;
  }
  const card = (options.cards ?? []).find((candidate) => `cards/${candidate.name}` === name);
  return card?.svg();
}
