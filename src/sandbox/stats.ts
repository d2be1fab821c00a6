/** GET /v1/stats/summary and GET /v1/profile/achievements: figures derived from the account's entries. */
import type { AccountData } from './data.js';
import { PHASES, type AchievementRecord, type Domain, type EntryRecord, type Phase } from './model.js';
import { DAY_MS } from './model.js';
import { hash32 } from './rng.js';

function countBy<T extends string>(keys: readonly T[]): Record<T, number> {
  return Object.fromEntries(keys.map((key) => [key, 0])) as Record<T, number>;
}

interface TimeSpent {
  watchMinutes: number;
  playMinutes: number;
  pagesRead: number;
  albumsListened: number;
}

function timeOf(entry: EntryRecord, time: TimeSpent): void {
  const { work, progress } = entry;
  if (work.type === 'film' && entry.phase === 'DONE') time.watchMinutes += (work.runtimeMinutes ?? 0) * entry.plan.cycles;
  else if (progress && 'episodes' in progress) time.watchMinutes += progress.episodes * (work.runtimeMinutes ?? 0);
  else if (progress && 'minutes' in progress) time.playMinutes += progress.minutes;
  else if (progress && 'pages' in progress) time.pagesRead += progress.pages;
  else if (work.type === 'album' && entry.phase === 'DONE') time.albumsListened += entry.plan.cycles;
}

/** The stats summary of the account, restricted to `domain` when given. */
export function statsSummary(account: AccountData, domain: Domain | undefined): Record<string, unknown> {
  return account.cached(`stats|${domain ?? ''}`, () => {
    const domains = domain ? [domain] : account.profile.domains;
    const byPhase = countBy(PHASES);
    const distribution: Record<string, number> = Object.fromEntries(Array.from({ length: 10 }, (_, n) => [String(n + 1), 0]));
    const time: TimeSpent = { watchMinutes: 0, playMinutes: 0, pagesRead: 0, albumsListened: 0 };
    const byDomain: Record<
      string,
      {
        entries: number;
        byPhase: Record<Phase, number>;
        byStatus: Record<string, number>;
        byType: Record<string, number>;
        rated: number;
        ratingSum: number;
      }
    > = {};
    for (const d of domains) byDomain[d] = { entries: 0, byPhase: countBy(PHASES), byStatus: {}, byType: {}, rated: 0, ratingSum: 0 };
    let entries = 0;
    let rated = 0;
    let ratingSum = 0;
    for (const entry of account.entries) {
      const bucket = byDomain[entry.work.domain];
      if (!bucket) continue;
      entries += 1;
      byPhase[entry.phase] += 1;
      bucket.entries += 1;
      bucket.byPhase[entry.phase] += 1;
      bucket.byStatus[entry.status] = (bucket.byStatus[entry.status] ?? 0) + 1;
      bucket.byType[entry.work.type] = (bucket.byType[entry.work.type] ?? 0) + 1;
      if (entry.rating !== null) {
        rated += 1;
        ratingSum += entry.rating;
        bucket.rated += 1;
        bucket.ratingSum += entry.rating;
        distribution[String(entry.rating)]! += 1;
      }
      timeOf(entry, time);
    }
    const average = (sum: number, count: number) => (count === 0 ? null : Math.round((sum / count) * 100) / 100);
    const reviews = account.reviews.filter((review) => domains.includes(review.entry.work.domain)).length;
    return {
      domains,
      totals: { entries, rated, averageRating: average(ratingSum, rated), reviews, lists: account.lists.length },
      byPhase,
      byDomain: Object.fromEntries(
        Object.entries(byDomain).map(([d, bucket]) => [
          d,
          {
            entries: bucket.entries,
            byPhase: bucket.byPhase,
            byStatus: bucket.byStatus,
            byType: bucket.byType,
            rated: bucket.rated,
            averageRating: average(bucket.ratingSum, bucket.rated),
          },
        ]),
      ),
      ratings: { count: rated, average: average(ratingSum, rated), distribution },
      timeSpent: time,
    };
  });
}

interface AchievementSpec {
  id: string;
  name: string;
  description: string;
  domain: Domain | null;
  target: number;
  measure: (account: AccountData) => number;
}

const countWhere = (account: AccountData, test: (entry: EntryRecord) => boolean) => {
  let n = 0;
  for (const entry of account.entries) if (test(entry)) n += 1;
  return n;
};

const ACHIEVEMENTS: AchievementSpec[] = [
  {
    id: 'first-steps',
    name: 'First steps',
    description: 'Add a first entry to the library.',
    domain: null,
    target: 1,
    measure: (a) => a.entries.length,
  },
  {
    id: 'collector',
    name: 'Collector',
    description: 'Have 100 entries in the library.',
    domain: null,
    target: 100,
    measure: (a) => a.entries.length,
  },
  {
    id: 'archivist',
    name: 'Archivist',
    description: 'Have 1,000 entries in the library.',
    domain: null,
    target: 1000,
    measure: (a) => a.entries.length,
  },
  { id: 'critic', name: 'Critic', description: 'Write 10 reviews.', domain: null, target: 10, measure: (a) => a.reviews.length },
  {
    id: 'curator',
    name: 'Curator',
    description: 'Create 5 lists.',
    domain: null,
    target: 5,
    measure: (a) => a.lists.filter((l) => !l.shared).length,
  },
  {
    id: 'cinephile',
    name: 'Cinephile',
    description: 'See 50 films.',
    domain: 'MEDIA',
    target: 50,
    measure: (a) => countWhere(a, (e) => e.work.type === 'film' && e.phase === 'DONE'),
  },
  {
    id: 'binge',
    name: 'Binge',
    description: 'Finish 10 series or anime.',
    domain: 'MEDIA',
    target: 10,
    measure: (a) => countWhere(a, (e) => e.work.seasons !== undefined && e.phase === 'DONE'),
  },
  {
    id: 'otaku',
    name: 'Otaku',
    description: 'Follow 5 anime.',
    domain: 'MEDIA',
    target: 5,
    measure: (a) => countWhere(a, (e) => e.work.type === 'anime' && e.phase !== 'PLANNED'),
  },
  {
    id: 'completionist',
    name: 'Completionist',
    description: 'Complete 10 games.',
    domain: 'GAMES',
    target: 10,
    measure: (a) => countWhere(a, (e) => e.work.type === 'game' && e.phase === 'DONE'),
  },
  {
    id: 'marathon-gamer',
    name: 'Marathon gamer',
    description: 'Play 500 hours.',
    domain: 'GAMES',
    target: 30_000,
    measure: (a) => a.entries.reduce((sum, e) => sum + (e.progress && 'minutes' in e.progress ? e.progress.minutes : 0), 0),
  },
  {
    id: 'bookworm',
    name: 'Bookworm',
    description: 'Read 10 books.',
    domain: 'BOOKS',
    target: 10,
    measure: (a) => countWhere(a, (e) => e.work.type === 'book' && e.phase === 'DONE'),
  },
  {
    id: 'ten-thousand-pages',
    name: 'Ten thousand pages',
    description: 'Read 10,000 pages.',
    domain: 'BOOKS',
    target: 10_000,
    measure: (a) => a.entries.reduce((sum, e) => sum + (e.progress && 'pages' in e.progress ? e.progress.pages : 0), 0),
  },
  {
    id: 'audiophile',
    name: 'Audiophile',
    description: 'Listen to 25 albums.',
    domain: 'MUSIC',
    target: 25,
    measure: (a) => countWhere(a, (e) => e.work.type === 'album' && e.phase === 'DONE'),
  },
  {
    id: 'on-repeat',
    name: 'On repeat',
    description: 'Listen to one album three times.',
    domain: 'MUSIC',
    target: 1,
    measure: (a) => countWhere(a, (e) => e.work.type === 'album' && e.plan.cycles >= 3),
  },
];

/** Every achievement's id (slug), whatever the account's domains. */
export function achievementIds(): string[] {
  return ACHIEVEMENTS.map((spec) => spec.id);
}

/** Achievements of the enabled domains (and the cross-domain ones): unlocked ones newest first, then locked ones. */
export function achievements(account: AccountData, seed: number, dataDay: number): AchievementRecord[] {
  return account.cached('achievements', () => {
    const records = ACHIEVEMENTS.filter((spec) => spec.domain === null || account.hasDomain(spec.domain)).map((spec): AchievementRecord => {
      const measured = Math.min(spec.measure(account), spec.target);
      // One still locked by the data but unlocked at run time (account-edits.ts): complete, at that time.
      const unlockedNow = measured < spec.target ? account.achievementUnlocks.get(spec.id) : undefined;
      const current = unlockedNow === undefined ? measured : spec.target;
      const unlocked = current >= spec.target;
      return {
        id: spec.id,
        name: spec.name,
        description: spec.description,
        domain: spec.domain,
        current,
        target: spec.target,
        unlockedAt:
          unlockedNow !== undefined
            ? unlockedNow
            : unlocked
              ? dataDay - ((hash32(seed, account.username, spec.id) % 700) + 1) * DAY_MS + (hash32(spec.id) % 86_400) * 1000
              : null,
      };
    });
    return records.sort((a, b) => (b.unlockedAt ?? -1) - (a.unlockedAt ?? -1) || (a.id < b.id ? -1 : 1));
  });
}
