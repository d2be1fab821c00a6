/**
 * The seeded generator: accounts, their library entries, lists, reviews, achievements and notifications.
 * Everything is a function of (seed, data day), where the data day is the start of the UTC day the sandbox
 * started on (from its clock): demo data always ends "today", and the same seed on the same day (or with the same
 * `now`) gives the same data.
 */
import { Catalogue, SHOWCASE, airedEpisodes, permute32, workTitle } from './catalogue.js';
import { entryEvents, firstCycleCount } from './history.js';
import { toBase62 } from './keys.js';
import {
  DAY_MS,
  DOMAIN_OF_TYPE,
  HOUR_MS,
  PHASE_OF_STATUS,
  PLANNED_STATUS,
  type AccountProfile,
  type Domain,
  type EntryRecord,
  type EventKind,
  type EventRecord,
  type ListItemRecord,
  type ListRecord,
  type NotificationRecord,
  type Progress,
  type ReviewRecord,
  type WorkRecord,
  type WorkType,
  APP_URL,
} from './model.js';
import { FIRST_NAMES, LAST_NAMES, NOTES, REVIEW_BODIES, REVIEW_HEADLINES } from './vocab.js';
import { Rng, hash32 } from './rng.js';

/** Entry serials of account k start at k * 2^24, so ids never collide across accounts. */
const SERIALS_PER_ACCOUNT = 1 << 24;
/** The initial library spreads over this many days before the data day. */
const LIBRARY_SPAN_DAYS = 6 * 365;

export interface AccountSpec {
  username: string;
  displayName: string;
  language: AccountProfile['language'];
  timezone: string;
  domains: Domain[];
  entries: number;
  bio: string;
  location: string | null;
  /** Use the showcase works with their fixed statuses as the newest entries (the demo account). */
  showcase: boolean;
}

/** Fixed statuses of the demo account's showcase entries (same order as SHOWCASE). */
const SHOWCASE_ENTRIES: ReadonlyArray<{ status: string; rating?: number | null; notes?: string; cycles?: number; imported?: boolean }> = [
  {
    status: 'COMPLETED',
    rating: 9,
    cycles: 2,
    notes: 'Rewatched with "Léa", twice, and cried both times.\nThe café scenes, the music, the colours — all of it.',
  },
  { status: 'COMPLETED', rating: 10 },
  { status: 'COMPLETED', rating: 7, cycles: 2, imported: true },
  { status: 'UP_TO_DATE', rating: 10 },
  { status: 'PLAYING', notes: 'Save file on the Switch, not the PC' },
  { status: 'READING', notes: 'Chapter 12, page 480; "the village" part drags, a bit.' },
  { status: 'LISTENED', rating: 8 },
  { status: 'DROPPED', rating: 4 },
  { status: 'WATCHING', rating: null },
  { status: 'PLANNED' },
  { status: 'UP_TO_DATE', rating: 8 },
  { status: 'PLANNED' },
];

export class AccountData {
  /** Natural order of GET /v1/library: added newest first, ties by id. */
  entries: EntryRecord[] = [];
  readonly byId = new Map<string, EntryRecord>();
  lists: ListRecord[] = [];
  reviews: ReviewRecord[] = [];
  notifications: NotificationRecord[] = [];
  /** Bumped on every change; derived views are cached per version. */
  version = 0;
  lastExportAt: number | null = null;
  private nextSerial: number;
  private nextWorkIndex = 0;
  private readonly memo = new Map<string, unknown>();

  constructor(
    readonly profile: AccountProfile,
    readonly accountIndex: number,
    private readonly catalogue: Catalogue,
    private readonly seed: number,
  ) {
    this.nextSerial = accountIndex * SERIALS_PER_ACCOUNT;
  }

  get username(): string {
    return this.profile.username;
  }

  hasDomain(domain: Domain): boolean {
    return this.profile.domains.includes(domain);
  }

  /** A derived value cached until the account changes. */
  cached<T>(key: string, build: () => T): T {
    if (this.memo.has(key)) return this.memo.get(key) as T;
    const value = build();
    if (this.memo.size > 200) this.memo.clear();
    this.memo.set(key, value);
    return value;
  }

  /** The next catalogue work of an enabled domain not yet in this library. */
  takeWork(): WorkRecord {
    while (!this.hasDomain(DOMAIN_OF_TYPE[this.catalogue.typeOf(this.nextWorkIndex)])) this.nextWorkIndex += 1;
    const work = this.catalogue.work(this.nextWorkIndex);
    this.nextWorkIndex += 1;
    return work;
  }

  /** Catalogue index just past the works this library uses (lists also pick from a little beyond). */
  get workHorizon(): number {
    return this.nextWorkIndex;
  }

  newEntryId(): { id: string; serial: number } {
    const serial = this.nextSerial;
    this.nextSerial += 1;
    return { id: 'e' + toBase62(permute32(serial, hash32(this.seed, 'entry-id')), 6), serial };
  }

  /** Prepends `count` freshly planned entries, added at `now` (strictly after every existing entry). */
  addEntries(count: number, now: number): EntryRecord[] {
    const added: EntryRecord[] = [];
    let at = Math.max(now, (this.entries[0]?.added ?? 0) + 1);
    for (let n = 0; n < count; n += 1) {
      const work = this.takeWork();
      const { id } = this.newEntryId();
      const status = PLANNED_STATUS[work.domain];
      added.push({
        id,
        account: this.username,
        work,
        status,
        phase: 'PLANNED',
        rating: null,
        notes: null,
        added: at,
        started: null,
        finished: null,
        updated: at,
        progress: plannedProgress(work),
        plan: { seed: 0, cycles: 1, spanStart: null, spanEnd: null, undated: 0 },
      });
      at += 1;
    }
    added.reverse(); // the last one added is the newest
    for (const entry of added) this.byId.set(entry.id, entry);
    this.entries = [...added, ...this.entries];
    this.changed();
    return added;
  }

  /** Removes an entry and the reviews written about it (a test of clients that mirror the library). */
  removeEntry(id: string): void {
    const entry = this.byId.get(id);
    if (!entry) throw new Error(`no entry ${id} in ${this.username}'s library`);
    this.byId.delete(id);
    this.entries = this.entries.filter((e) => e !== entry);
    this.reviews = this.reviews.filter((review) => review.entry !== entry);
    this.changed();
  }

  /** Sets an entry's rating (1-10, or null), as a change made in the web app at `now`. */
  rateEntry(id: string, rating: number | null, now: number): void {
    this.editEntry(id, now, (entry) => (entry.rating = rating));
  }

  /** Replaces an entry's notes (or clears them with null), as an edit in the web app at `now`. */
  noteEntry(id: string, notes: string | null, now: number): void {
    this.editEntry(id, now, (entry) => (entry.notes = notes));
  }

  private editEntry(id: string, now: number, edit: (entry: EntryRecord) => void): void {
    const entry = this.byId.get(id);
    if (!entry) throw new Error(`no entry ${id} in ${this.username}'s library`);
    edit(entry);
    entry.updated = Math.max(entry.updated, now);
    this.changed();
  }

  /** Appends one dated event to an entry's history (its newest), at `at`; returns its id. */
  addEvent(id: string, kind: EventKind, at: number, extra: { minutes?: number; pages?: number; season?: number; episode?: number } = {}): string {
    const entry = this.byId.get(id);
    if (!entry) throw new Error(`no entry ${id} in ${this.username}'s library`);
    const events = entryEvents(entry);
    const cycle = events.at(-1)?.cycle ?? 1;
    const event: EventRecord = { id: `${entry.id}-${events.length + 1}`, entry, kind, date: at, cycle, ...extra };
    events.push(event);
    entry.updated = Math.max(entry.updated, at);
    this.changed();
    return event.id;
  }

  changed(): void {
    this.version += 1;
    this.memo.clear();
  }
}

export class SandboxData {
  readonly catalogue: Catalogue;
  readonly accounts = new Map<string, AccountData>();

  constructor(
    readonly seed: number,
    /** Start of the UTC day the data is anchored to. */
    readonly dataDay: number,
    specs: AccountSpec[],
  ) {
    this.catalogue = new Catalogue(seed, dataDay);
    specs.forEach((spec, index) => this.accounts.set(spec.username, this.buildAccount(spec, index)));
  }

  account(username: string): AccountData {
    const account = this.accounts.get(username);
    if (!account) throw new Error(`no sandbox account ${JSON.stringify(username)} (accounts: ${[...this.accounts.keys()].join(', ')})`);
    return account;
  }

  private buildAccount(spec: AccountSpec, index: number): AccountData {
    const rng = Rng.derive(this.seed, 'account', spec.username);
    const profile: AccountProfile = {
      id: 'u' + toBase62(hash32(this.seed, 'user', spec.username), 6),
      username: spec.username,
      displayName: spec.displayName,
      language: spec.language,
      timezone: spec.timezone,
      domains: spec.domains,
      bio: spec.bio,
      location: spec.location,
      joinedAt: this.dataDay - LIBRARY_SPAN_DAYS * DAY_MS - rng.int(10, 200) * DAY_MS,
    };
    const account = new AccountData(profile, index, this.catalogue, this.seed);
    this.buildEntries(account, spec);
    account.lists = buildLists(account, this.catalogue, this.seed, this.dataDay);
    account.reviews = buildReviews(account, this.seed, this.dataDay);
    account.notifications = buildNotifications(account, this.seed, this.dataDay);
    return account;
  }

  private buildEntries(account: AccountData, spec: AccountSpec): void {
    const rng = Rng.derive(this.seed, 'library', spec.username);
    const meanGap = (LIBRARY_SPAN_DAYS * DAY_MS) / Math.max(1, spec.entries);
    let added = this.dataDay - 3 * HOUR_MS;
    const entries: EntryRecord[] = new Array(spec.entries);
    for (let n = 0; n < spec.entries; n += 1) {
      const forced = spec.showcase && n < SHOWCASE.length ? SHOWCASE_ENTRIES[n] : undefined;
      const work = account.takeWork();
      const { id, serial } = account.newEntryId();
      entries[n] = generateEntry(account.username, id, work, Math.round(added), Rng.derive(this.seed, 'entry', serial), this.dataDay, forced);
      added -= 1 + Math.floor(-Math.log(1 - rng.next()) * meanGap);
    }
    account.entries = entries;
    for (const entry of entries) account.byId.set(entry.id, entry);
  }
}

/** `ms + delay`, or a random instant between `ms` and `limit` when that would pass the limit. */
function soonAfter(ms: number, delay: number, limit: number, rng: Rng): number {
  if (ms >= limit) return ms;
  return ms + delay <= limit ? ms + delay : Math.round(ms + (limit - ms) * rng.next());
}

function plannedProgress(work: WorkRecord): Progress {
  switch (work.type) {
    case 'series':
    case 'anime':
      return { episodes: 0, total: work.episodes! };
    case 'book':
      return { pages: 0, total: work.pages! };
    case 'game':
      return { minutes: 0 };
    default:
      return null;
  }
}

/** How often each status occurs (DONE stands for COMPLETED, or UP_TO_DATE while the show airs). */
const STATUS_WEIGHTS = {
  film: { PLANNED: 30, COMPLETED: 62, DROPPED: 8 },
  show: { PLANNED: 20, WATCHING: 25, DONE: 45, DROPPED: 10 },
  game: { BACKLOG: 35, PLAYING: 15, COMPLETED: 40, DROPPED: 10 },
  book: { TO_READ: 35, READING: 12, READ: 45, DROPPED: 8 },
  album: { TO_LISTEN: 30, LISTENED: 70 },
} as const;

function pickStatus(work: WorkRecord, rng: Rng): string {
  switch (work.type) {
    case 'film':
      return rng.weighted(STATUS_WEIGHTS.film);
    case 'series':
    case 'anime': {
      const status = rng.weighted(STATUS_WEIGHTS.show);
      const done = work.airing ? 'UP_TO_DATE' : 'COMPLETED';
      if (status === 'DONE') return done;
      // WATCHING means some aired episodes are still unseen.
      if (status === 'WATCHING' && work.episodes! < 2) return done;
      return status;
    }
    case 'game':
      return rng.weighted(STATUS_WEIGHTS.game);
    case 'book':
      return rng.weighted(STATUS_WEIGHTS.book);
    case 'album':
      return rng.weighted(STATUS_WEIGHTS.album);
  }
}

function pickProgress(work: WorkRecord, status: string, rng: Rng): Progress {
  switch (work.type) {
    case 'series':
    case 'anime': {
      const total = work.episodes!;
      const episodes =
        status === 'PLANNED'
          ? 0
          : status === 'WATCHING'
            ? rng.int(1, total - 1)
            : status === 'DROPPED'
              ? rng.int(1, Math.max(1, Math.ceil(total / 2)))
              : total;
      return { episodes, total };
    }
    case 'book': {
      const total = work.pages!;
      const pages =
        status === 'TO_READ' ? 0 : status === 'READING' ? rng.int(1, total - 1) : status === 'DROPPED' ? rng.int(1, Math.ceil(total / 2)) : total;
      return { pages, total };
    }
    case 'game': {
      const minutes =
        status === 'BACKLOG' ? 0 : status === 'PLAYING' ? rng.int(30, 3000) : status === 'COMPLETED' ? rng.int(300, 6000) : rng.int(20, 900);
      return { minutes };
    }
    default:
      return null;
  }
}

const DONE_RATINGS = { '10': 8, '9': 14, '8': 22, '7': 20, '6': 12, '5': 8, '4': 5, '3': 4, '2': 4, '1': 3 } as const;

/** How long the activity lasts, per cycle. */
function activityDays(work: WorkRecord, firstCycleEvents: number, rng: Rng): number {
  switch (work.type) {
    case 'film':
    case 'album':
      return rng.int(30, 400);
    case 'series':
    case 'anime':
      return Math.max(1, Math.round(firstCycleEvents * (0.3 + rng.next() * 3)));
    case 'game':
    case 'book':
      return Math.max(1, Math.round(firstCycleEvents * (1 + rng.next() * 3)));
  }
}

export function generateEntry(
  account: string,
  id: string,
  work: WorkRecord,
  added: number,
  rng: Rng,
  dataDay: number,
  forced?: (typeof SHOWCASE_ENTRIES)[number],
): EntryRecord {
  const status = forced?.status ?? pickStatus(work, rng);
  const phase = PHASE_OF_STATUS[work.domain][status]!;
  const progress = pickProgress(work, status, rng);
  let rating: number | null = null;
  if (forced && forced.rating !== undefined) rating = forced.rating;
  else if (phase === 'DONE' && rng.chance(0.78)) rating = Number(rng.weighted(DONE_RATINGS));
  else if (phase === 'DROPPED' && rng.chance(0.45)) rating = rng.int(1, 6);
  else if (phase === 'IN_PROGRESS' && rng.chance(0.2)) rating = rng.int(5, 10);
  const notes = forced?.notes ?? (rng.chance(0.07) ? rng.pick(NOTES) : null);

  let cycles = forced?.cycles ?? 1;
  if (!forced && phase === 'DONE' && status !== 'UP_TO_DATE') {
    const rewatch = work.type === 'album' ? 0.3 : work.type === 'film' ? 0.15 : 0.08;
    if (rng.chance(rewatch)) cycles = rng.chance(0.25) ? 3 : 2;
  }
  const firstCycle = firstCycleCount(work, status, progress);
  const latest = dataDay - HOUR_MS;
  let spanStart: number | null = null;
  let spanEnd: number | null = null;
  let undated = 0;
  if (firstCycle > 0) {
    spanStart = added + rng.int(0, 20) * DAY_MS + rng.int(0, 23) * HOUR_MS;
    // Squeeze rather than clamp near the data day, so recent activity does not pile up on one instant.
    if (spanStart > latest) spanStart = Math.round(added + (latest - added) * rng.next() * 0.5);
    if ((status === 'UP_TO_DATE' || status === 'WATCHING') && work.airing) {
      spanEnd = latest - rng.int(0, 6 * 24) * HOUR_MS; // keeping up with an airing show: recent activity
    } else {
      const days =
        work.type === 'film' || work.type === 'album'
          ? cycles === 1
            ? 0
            : activityDays(work, firstCycle, rng) * (cycles - 1)
          : activityDays(work, firstCycle, rng) * cycles;
      spanEnd = spanStart + days * DAY_MS + rng.int(1, 3) * HOUR_MS;
    }
    if (spanEnd > latest) spanEnd = Math.round(spanStart + (latest - spanStart) * (0.5 + rng.next() * 0.5));
    spanEnd = Math.max(spanStart, spanEnd);
    const imported = forced ? Boolean(forced.imported) : rng.chance(0.2);
    // An import brings old activity without dates: the first half of the first cycle.
    if (imported) undated = firstCycle >= 2 ? Math.ceil(firstCycle / 2) : firstCycle;
  }
  const hasEvents = spanStart !== null;
  const lastUndated = cycles === 1 && undated === firstCycle;
  const started = hasEvents && undated === 0 ? spanStart : null;
  const finished = hasEvents && phase === 'DONE' && status !== 'UP_TO_DATE' && !lastUndated ? spanEnd : null;
  const updated = Math.max(added, spanEnd ?? added);
  return {
    id,
    account,
    work,
    status,
    phase,
    rating,
    notes,
    added,
    started,
    finished,
    updated,
    progress,
    plan: { seed: hash32(rng.int(0, 0x7fffffff), id), cycles, spanStart, spanEnd, undated },
  };
}

interface ListSpec {
  name: string;
  description: string | null;
  types: WorkType[] | null;
  size: number;
  visibility: ListRecord['visibility'];
  owner?: string;
}

const LIST_SPECS: Record<string, ListSpec[]> = {
  demo: [
    { name: 'Favourites ★', description: 'The ones I keep coming back to.', types: null, size: 25, visibility: 'public' },
    {
      name: 'Watch with Léa',
      description: 'Films and shows for Friday nights, in no particular order',
      types: ['film', 'series', 'anime'],
      size: 12,
      visibility: 'friends',
    },
    { name: 'Cozy games', description: null, types: ['game'], size: 8, visibility: 'private' },
    {
      name: '2026 reading challenge',
      description: 'One book a month, at least; "classics" count double.',
      types: ['book'],
      size: 15,
      visibility: 'public',
    },
    { name: 'Best of 東京', description: 'Tokyo, on screen and on the page', types: ['film', 'anime', 'book'], size: 6, visibility: 'public' },
    { name: 'To rewatch', description: null, types: ['film', 'series'], size: 10, visibility: 'private' },
    { name: 'Movie night', description: 'Camille’s list; add what you like.', types: ['film'], size: 9, visibility: 'friends', owner: 'camille' },
    { name: 'Everything, ever', description: null, types: null, size: 150, visibility: 'private' },
  ],
  reader: [
    { name: 'À voir absolument', description: 'Films et séries', types: ['film', 'series'], size: 10, visibility: 'public' },
    { name: "Lectures d'été", description: null, types: ['book'], size: 7, visibility: 'private' },
    { name: 'Jeux à finir', description: null, types: ['game'], size: 5, visibility: 'private' },
    { name: 'Albums du dimanche', description: 'Partagée par Marco', types: ['album'], size: 6, visibility: 'friends', owner: 'marco' },
  ],
};

function buildLists(account: AccountData, catalogue: Catalogue, seed: number, dataDay: number): ListRecord[] {
  const rng = Rng.derive(seed, 'lists', account.username);
  const specs = LIST_SPECS[account.username] ?? LIST_SPECS.demo!;
  const lists: ListRecord[] = [];
  const horizon = account.workHorizon + 60; // a few works not in the library too
  specs.forEach((spec, n) => {
    const types = (spec.types ?? (['film', 'series', 'anime', 'game', 'book', 'album'] as WorkType[])).filter((type) =>
      account.hasDomain(DOMAIN_OF_TYPE[type]),
    );
    if (types.length === 0) return; // only enabled domains appear anywhere
    const candidates: number[] = [];
    for (let index = 0; index < horizon && candidates.length < spec.size * 4; index += 1) {
      if (types.includes(catalogue.typeOf(index))) candidates.push(index);
    }
    const createdAt = dataDay - rng.int(30, 900) * DAY_MS - rng.int(0, 86_399) * 1000;
    const chosen = new Set<number>();
    while (chosen.size < Math.min(spec.size, candidates.length)) chosen.add(rng.pick(candidates));
    let addedAt = createdAt;
    const items: ListItemRecord[] = [...chosen].map((index) => {
      const work = catalogue.work(index);
      addedAt = soonAfter(addedAt, rng.int(1, 20 * 86_400) * 1000, dataDay - HOUR_MS, rng);
      const item: ListItemRecord = { type: 'work', work, addedAt };
      if (work.seasons !== undefined) {
        const roll = rng.next();
        if (roll < 0.2) Object.assign(item, { type: 'season', season: rng.int(1, work.seasons) });
        else if (roll < 0.35)
          Object.assign(item, {
            type: 'episode',
            season: rng.int(1, work.seasons),
            episode: rng.int(1, Math.min(work.episodesPerSeason!, work.episodes!)),
          });
      }
      if (rng.chance(0.15)) item.note = rng.pick(NOTES);
      return item;
    });
    lists.push({
      id: 'l' + toBase62(permute32(account.accountIndex * 1000 + n, seed ^ 0x5eed), 6),
      name: spec.name,
      description: spec.description,
      visibility: spec.visibility,
      shared: spec.owner !== undefined,
      owner: spec.owner ?? account.username,
      createdAt,
      updatedAt: items.reduce((latest, item) => Math.max(latest, item.addedAt), createdAt),
      items,
    });
  });
  return lists;
}

function buildReviews(account: AccountData, seed: number, dataDay: number): ReviewRecord[] {
  const rng = Rng.derive(seed, 'reviews', account.username);
  const reviews: ReviewRecord[] = [];
  let n = 0;
  for (const entry of account.entries) {
    if (entry.rating === null || entry.phase !== 'DONE' || !rng.chance(0.15)) continue;
    const createdAt = soonAfter(entry.finished ?? entry.updated, rng.int(1, 72) * HOUR_MS, dataDay - HOUR_MS, rng);
    reviews.push({
      id: 'r' + toBase62(permute32(account.accountIndex * 10_000_000 + n, seed ^ 0x4e71e), 6),
      entry,
      headline: rng.pick(REVIEW_HEADLINES),
      body: rng.pick(REVIEW_BODIES),
      spoiler: rng.chance(0.1),
      likes: rng.int(0, 120),
      createdAt,
      updatedAt: rng.chance(0.2) ? soonAfter(createdAt, rng.int(1, 30) * DAY_MS, dataDay - HOUR_MS, rng) : createdAt,
    });
    n += 1;
  }
  return reviews.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1));
}

function buildNotifications(account: AccountData, seed: number, dataDay: number): NotificationRecord[] {
  const rng = Rng.derive(seed, 'notifications', account.username);
  const lang = account.profile.language;
  const shows = account.entries.filter((entry) => entry.work.airing && entry.status !== 'DROPPED').slice(0, 12);
  const people = () => `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
  const out: Array<Omit<NotificationRecord, 'id' | 'read'>> = [];
  const at = () => dataDay - rng.int(1, 60 * 24) * HOUR_MS - rng.int(0, 3599) * 1000; // within the last 60 days
  for (const entry of shows) {
    const aired = airedEpisodes(entry.work, dataDay);
    out.push({
      kind: 'episode_aired',
      title: 'New episode',
      message: `Episode ${aired} of ${workTitle(entry.work, lang)} is out.`,
      createdAt: at(),
      url: `${APP_URL}/works/${entry.work.id}`,
    });
  }
  for (let n = 0; n < 6; n += 1) {
    out.push({
      kind: 'new_follower',
      title: 'New follower',
      message: `${people()} followed you.`,
      createdAt: at(),
      url: `${APP_URL}/u/${account.username}/followers`,
    });
  }
  if (account.username === 'demo') {
    out.push({
      kind: 'key_revoked',
      title: 'API key revoked',
      message: 'Your API key "revoked" was found in a public repository (github.com/example/dotfiles, file .env) and was revoked.',
      createdAt: dataDay - 2 * DAY_MS - 5 * HOUR_MS,
      url: `${APP_URL}/settings/integrations`,
    });
    out.push({
      kind: 'key_expiring',
      title: 'API key expiring',
      message: 'Your API key "expired" expires in 7 days.',
      createdAt: dataDay - 8 * DAY_MS,
      url: `${APP_URL}/settings/integrations`,
    });
  }
  for (const list of account.lists.filter((candidate) => candidate.shared)) {
    out.push({
      kind: 'list_shared',
      title: 'List shared with you',
      message: `${list.owner} shared the list "${list.name}" with you.`,
      createdAt: list.createdAt,
      url: `${APP_URL}/lists/${list.id}`,
    });
  }
  for (const review of account.reviews.slice(0, 8)) {
    out.push({
      kind: 'review_liked',
      title: 'Your review was liked',
      message: `${people()} liked your review of ${workTitle(review.entry.work, lang)}.`,
      createdAt: soonAfter(review.createdAt, rng.int(1, 48) * HOUR_MS, dataDay - 1000, rng),
      url: `${APP_URL}/reviews/${review.id}`,
    });
  }
  out.sort((a, b) => b.createdAt - a.createdAt);
  return out.map((notification, n) => ({
    id: 'n' + toBase62(permute32(account.accountIndex * 100_000 + n, seed ^ 0x0071f), 6),
    read: n >= 5,
    ...notification,
  }));
}
