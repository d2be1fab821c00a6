/**
 * Changes to an account beyond its library, made while the sandbox runs (mutations.ts): a new notification, one read,
 * the profile edited, an achievement unlocked. Each bumps the account's version, as a library change does, so every
 * derived view (stats, achievements, the export) follows.
 */
import type { AccountData } from './data.js';
import { MutationRefused } from './errors.js';
import { toBase62 } from './keys.js';
import { APP_URL } from './model.js';
import { achievementIds } from './stats.js';

export interface ProfileEdit {
  displayName?: string | undefined;
  bio?: string | undefined;
  location?: string | null | undefined;
}

/** Adds an unread notification at `now` (the newest, first in the list); returns its id. */
export function addNotification(
  account: AccountData,
  notification: { title: string; message: string; kind?: string | undefined },
  now: number,
): string {
  const taken = new Set(account.notifications.map((existing) => existing.id));
  let serial = account.notifications.length;
  let id: string;
  do id = `n${toBase62(0x7000_0000 + account.accountIndex * 100_000 + serial++, 6)}`;
  while (taken.has(id));
  account.notifications = [
    {
      id,
      kind: notification.kind ?? 'announcement',
      title: notification.title,
      message: notification.message,
      read: false,
      createdAt: now,
      url: `${APP_URL}/notifications/${id}`,
    },
    ...account.notifications,
  ];
  account.changed();
  return id;
}

export function readNotification(account: AccountData, id: string, read: boolean): void {
  const found = account.notifications.find((notification) => notification.id === id);
  if (!found) throw new MutationRefused(`no notification ${id} for ${account.username}`);
  found.read = read;
  account.changed();
}

export function editProfile(account: AccountData, edit: ProfileEdit): void {
  const { profile } = account;
  if (edit.displayName !== undefined) profile.displayName = edit.displayName;
  if (edit.bio !== undefined) profile.bio = edit.bio;
  if (edit.location !== undefined) profile.location = edit.location;
  account.changed();
}

export function unlockAchievement(account: AccountData, id: string, now: number): void {
  if (!achievementIds().includes(id)) throw new MutationRefused(`no achievement ${id} (achievements: ${achievementIds().join(', ')})`);
  if (!account.achievementUnlocks.has(id)) account.achievementUnlocks.set(id, now);
  account.changed();
}
