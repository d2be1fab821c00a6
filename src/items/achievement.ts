import { firstOf, getPath } from '../util/object-path.js';

/**
 * An achievement (GET /v1/achievements). docs/api.md names none of its fields: the sandbox sends `name`,
 * `description`, `domain`, `unlockedAt` and `progress` ({current, target}), its alt variant `title`; the other
 * spellings are ones lk read somewhere (the table, lk diff, the mirror's columns).
 */
export const ACHIEVEMENT_NAME_PATHS = ['name', 'title'] as const;
export const ACHIEVEMENT_UNLOCKED_PATHS = ['unlockedAt', 'achievedAt', 'date'] as const;

export const achievementNameOf = (achievement: unknown): unknown => firstOf(achievement, ACHIEVEMENT_NAME_PATHS);
export const achievementDescriptionOf = (achievement: unknown): unknown => firstOf(achievement, ['description']);
export const achievementDomainOf = (achievement: unknown): unknown => getPath(achievement, 'domain');
export const achievementUnlockedAtOf = (achievement: unknown): unknown => firstOf(achievement, ACHIEVEMENT_UNLOCKED_PATHS);

/** Its progress: how far (current) out of how much (target), in an object or flat; `progress` itself when a scalar. */
export function achievementProgressOf(achievement: unknown): { current: unknown; target: unknown; raw: unknown } {
  return {
    current: firstOf(achievement, ['progress.current', 'current']),
    target: firstOf(achievement, ['progress.target', 'progress.total', 'target']),
    raw: getPath(achievement, 'progress'),
  };
}
