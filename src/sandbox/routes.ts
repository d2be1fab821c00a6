/**
 * The 14 endpoints of docs/api.md, Endpoints: path pattern, required scope, handler. Handlers validate their query, then read
 * the account's data; they never see a request without a valid key.
 */
import type { KeyRecord } from './auth.js';
import { calendarItems } from './calendar.js';
import type { AccountData } from './data.js';
import { HttpError, notFound, rateLimited } from './errors.js';
import { exportDocument, type ExportCollection, type ExportDress } from './export.js';
import { entryHistory } from './history.js';
import { iso, type Domain, type Lang } from './model.js';
import * as params from './params.js';
import { datedEvents, historyView, libraryView } from './queries.js';
import { renderAccount, renderAchievement, renderEntry, renderEvent, renderList, renderNotification, renderProfile, renderReview } from './render.js';
import type { BudgetState } from './rate-limit.js';
import { achievements, statsSummary } from './stats.js';

export interface RouteContext {
  account: AccountData;
  key: KeyRecord;
  query: URLSearchParams;
  /** Path segments captured by the route pattern (ids). */
  ids: string[];
  now: number;
  budget: BudgetState;
  seed: number;
  dataDay: number;
  exportIntervalSeconds: number;
  exportLeavesOut: ReadonlySet<ExportCollection>;
  exportDress: ExportDress;
  /** The stats summary carries its generation time (the sandbox's statsGeneratedAt option). */
  statsGeneratedAt: boolean;
  /** Called when an export is answered 200. */
  onExport: () => void;
}

/** A JSON body, or a document streamed in pieces (the export). */
export type Reply = { status: number; body: unknown } | { status: number; stream: Iterable<string> };

export interface Route {
  name: string;
  pattern: RegExp;
  /** Scope the key needs; null: any valid key. */
  scope: string | null;
  handle: (context: RouteContext) => Reply;
}

const ok = (body: unknown): Reply => ({ status: 200, body });

function langOf(context: RouteContext): Lang {
  return params.lang(context.query, context.account.profile.language);
}

/** The domain filter of the query: 400 for an unknown value, 403 user.domain_disabled for a disabled one. */
function domainOf(context: RouteContext): Domain | undefined {
  const domain = params.domain(context.query);
  if (domain !== undefined && !context.account.hasDomain(domain)) {
    throw new HttpError(403, 'user.domain_disabled', `The ${domain} domain is disabled for this account.`, { domain });
  }
  return domain;
}

function entryOf(context: RouteContext) {
  const id = context.ids[0]!;
  const entry = context.account.byId.get(id);
  if (!entry) throw notFound(`No library entry with id ${JSON.stringify(id)}.`);
  return entry;
}

export const ROUTES: readonly Route[] = [
  {
    name: 'me',
    pattern: /^\/v1\/me$/,
    scope: null,
    handle: (context) => {
      params.lang(context.query, 'en');
      const { key, budget } = context;
      return ok({
        account: renderAccount(context.account),
        key: {
          id: key.id,
          name: key.name,
          prefix: key.key.slice(0, 8),
          scopes: key.scopes,
          createdAt: iso(key.createdAt),
          expiresAt: iso(key.expiresAt),
        },
        rateLimit: { limit: budget.limit, remaining: budget.remaining, reset: budget.reset },
      });
    },
  },
  {
    name: 'library',
    pattern: /^\/v1\/library$/,
    scope: 'library:read',
    handle: (context) => {
      const { query } = context;
      const paging = params.paging(query);
      const lang = langOf(context);
      const view = libraryView(context.account, {
        sort: params.sort(query),
        order: params.order(query),
        phase: params.phase(query),
        domain: domainOf(context),
        lang,
      });
      return ok(params.envelope(view, paging, (entry) => renderEntry(entry, lang)));
    },
  },
  {
    name: 'library entry',
    pattern: /^\/v1\/library\/([^/]+)$/,
    scope: 'library:read',
    handle: (context) => {
      const lang = langOf(context);
      return ok(renderEntry(entryOf(context), lang));
    },
  },
  {
    name: 'library entry history',
    pattern: /^\/v1\/library\/([^/]+)\/history$/,
    scope: 'library:read',
    handle: (context) => {
      const paging = params.paging(context.query);
      const lang = langOf(context);
      return ok(params.envelope(entryHistory(entryOf(context)), paging, (event) => renderEvent(event, lang)));
    },
  },
  {
    name: 'history',
    pattern: /^\/v1\/history$/,
    scope: 'library:read',
    handle: (context) => {
      const { query } = context;
      const paging = params.paging(query);
      const lang = langOf(context);
      const domain = domainOf(context);
      const from = params.windowBound(query, 'from');
      const to = params.windowBound(query, 'to');
      if (from !== undefined && to !== undefined && from > to) {
        throw new HttpError(400, 'request.invalid_parameter', 'from must not be after to.', { parameter: 'from' });
      }
      return ok(params.envelope(historyView(context.account, domain, from, to), paging, (event) => renderEvent(event, lang)));
    },
  },
  {
    name: 'lists',
    pattern: /^\/v1\/lists$/,
    scope: 'lists:read',
    handle: (context) => {
      const paging = params.paging(context.query);
      const lang = langOf(context);
      return ok(params.envelope(context.account.lists, paging, (list) => renderList(list, lang, false)));
    },
  },
  {
    name: 'list',
    pattern: /^\/v1\/lists\/([^/]+)$/,
    scope: 'lists:read',
    handle: (context) => {
      const lang = langOf(context);
      const id = context.ids[0]!;
      const list = context.account.lists.find((candidate) => candidate.id === id);
      if (!list) throw notFound(`No list with id ${JSON.stringify(id)}.`);
      return ok(renderList(list, lang, true));
    },
  },
  {
    name: 'calendar',
    pattern: /^\/v1\/calendar$/,
    scope: 'calendar:read',
    handle: (context) => {
      const lang = langOf(context);
      return ok({ items: calendarItems(context.account, context.now, lang, domainOf(context)) });
    },
  },
  {
    name: 'stats summary',
    pattern: /^\/v1\/stats\/summary$/,
    scope: 'stats:read',
    handle: (context) => {
      params.lang(context.query, 'en');
      const domain = domainOf(context);
      const summary = statsSummary(context.account, domain);
      const dated = datedEvents(context.account, domain).length;
      const generated = context.statsGeneratedAt ? { generatedAt: new Date(context.now).toISOString() } : {};
      return ok({ ...summary, history: { datedEvents: dated }, ...generated });
    },
  },
  {
    name: 'reviews',
    pattern: /^\/v1\/reviews$/,
    scope: 'reviews:read',
    handle: (context) => {
      const paging = params.paging(context.query);
      const lang = langOf(context);
      const domain = domainOf(context);
      const reviews =
        domain === undefined
          ? context.account.reviews
          : context.account.cached(`reviews|${domain}`, () => context.account.reviews.filter((review) => review.entry.work.domain === domain));
      return ok(params.envelope(reviews, paging, (review) => renderReview(review, lang)));
    },
  },
  {
    name: 'profile',
    pattern: /^\/v1\/profile$/,
    scope: 'profile:read',
    handle: (context) => {
      params.lang(context.query, 'en');
      const unlocked = achievements(context.account, context.seed, context.dataDay).filter((a) => a.unlockedAt !== null).length;
      return ok(renderProfile(context.account, unlocked));
    },
  },
  {
    name: 'achievements',
    pattern: /^\/v1\/profile\/achievements$/,
    scope: 'profile:read',
    handle: (context) => {
      const paging = params.paging(context.query);
      params.lang(context.query, 'en');
      const all = achievements(context.account, context.seed, context.dataDay);
      return ok(params.envelope(all, paging, (achievement) => renderAchievement(achievement, context.account.username)));
    },
  },
  {
    name: 'notifications',
    pattern: /^\/v1\/notifications$/,
    scope: 'notifications:read',
    handle: (context) => {
      const paging = params.paging(context.query);
      params.lang(context.query, 'en');
      return ok(params.envelope(context.account.notifications, paging, renderNotification));
    },
  },
  {
    name: 'export',
    pattern: /^\/v1\/export$/,
    scope: 'export:read',
    handle: (context) => {
      const lang = langOf(context);
      const { account, now } = context;
      const intervalMs = context.exportIntervalSeconds * 1000;
      if (account.lastExportAt !== null && now < account.lastExportAt + intervalMs) {
        const seconds = Math.ceil((account.lastExportAt + intervalMs - now) / 1000);
        throw rateLimited(
          `Exports are limited to one every ${context.exportIntervalSeconds} s per account; the next one is allowed in ${seconds} s.`,
          seconds,
        );
      }
      account.lastExportAt = now;
      context.onExport();
      return {
        status: 200,
        stream: exportDocument(account, lang, now, context.seed, context.dataDay, context.exportLeavesOut, context.exportDress),
      };
    },
  },
];

/** The route for a path and the ids it captured, or undefined. */
export function matchRoute(pathname: string): { route: Route; ids: string[] } | undefined {
  for (const route of ROUTES) {
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    try {
      return { route, ids: match.slice(1).map((id) => decodeURIComponent(id)) };
    } catch {
      return undefined; // a malformed %-escape names no entry or list
    }
  }
  return undefined;
}
