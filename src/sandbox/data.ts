/**
 * The seeded generator: accounts, their library entries, lists, reviews, achievements and notifications.
 * Everything is a function of (seed, data day), where the data day is the start of the UTC day the sandbox
 * started on (from its clock): demo data always ends "today", and the same seed on the same day (or with the same
 * `now`) gives the same data.
 */
import { Catalogue, SHOWCASE, airedEpisodes, permute32, workTitle } from './catalogue.js';
import { entryEvents } from './history.js';
import { toBase62 } from './keys.js';
import {
  DAY_MS,
  DOMAIN_OF_TYPE,
  HOUR_MS,
  PLANNED_STATUS,
  type AccountProfile,
  type Domain,
  type EntryRecord,
  type EventKind,
  type EventRecord,
  type ListItemRecord,
  type ListRecord,
  type NotificationRecord,
  type ReviewRecord,
  type WorkRecord,
  type WorkType,
  APP_URL,
} from './model.js';
import { FIRST_NAMES, LAST_NAMES, NOTES, REVIEW_BODIES, REVIEW_HEADLINES } from './vocab.js';
import { Rng, hash32 } from './rng.js';
import { generateEntry, plannedProgress, SHOWCASE_ENTRIES, soonAfter } from './entries.js';
import { LIST_SPECS } from './list-specs.js';

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

export class AccountData {
  /** Natural order of GET /v1/library: added newest first, ties by id. */
  entries: EntryRecord[] = [];
  readonly byId = new Map<string, EntryRecord>();
  lists: ListRecord[] = [];
  reviews: ReviewRecord[] = [];
  notifications: NotificationRecord[] = [];
  /** Achievements unlocked at run time (account-edits.ts): slug → when. */
  readonly achievementUnlocks = new Map<string, number>();
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
