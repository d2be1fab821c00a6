import { firstOf, getPath } from '../util/object-path.js';

/**
 * A notification (GET /v1/notifications). docs/api.md names none of its fields: the sandbox sends `title`, `message`,
 * `kind`, `read` and `createdAt`, its alt variant `body`, `type` and `readAt`; the other spellings are ones lk read
 * somewhere (the table, lk status, lk notify, lk diff, the mirror's columns), gathered here for every surface.
 */

/** Where its title is. */
export const NOTIFICATION_TITLE_PATHS = ['title', 'subject'] as const;
/** Where its text is. */
export const NOTIFICATION_TEXT_PATHS = ['message', 'text', 'body'] as const;
/** Where its kind is. */
export const NOTIFICATION_KIND_PATHS = ['kind', 'type'] as const;
/** Where its date is. */
export const NOTIFICATION_DATE_PATHS = ['createdAt', 'date', 'created_at'] as const;
/** What heads it in a line: its title, else its text (an instance may send a message alone). */
export const NOTIFICATION_HEADLINE_PATHS = [...NOTIFICATION_TITLE_PATHS, ...NOTIFICATION_TEXT_PATHS] as const;

export const notificationTitleOf = (notification: unknown): unknown => firstOf(notification, NOTIFICATION_TITLE_PATHS);
export const notificationTextOf = (notification: unknown): unknown => firstOf(notification, NOTIFICATION_TEXT_PATHS);
export const notificationKindOf = (notification: unknown): unknown => firstOf(notification, NOTIFICATION_KIND_PATHS);
export const notificationDateOf = (notification: unknown): unknown => firstOf(notification, NOTIFICATION_DATE_PATHS);
export const notificationHeadlineOf = (notification: unknown): unknown => firstOf(notification, NOTIFICATION_HEADLINE_PATHS);

/** Its text when a title heads it; undefined when the text is the headline already (shown once). */
export function notificationBodyOf(notification: unknown): unknown {
  return notificationTitleOf(notification) === undefined ? undefined : notificationTextOf(notification);
}

/** Read or not: a `read` boolean, or a `readAt` time (null while unread); undefined when the instance says neither. */
export function notificationIsRead(notification: unknown): boolean | undefined {
  const read = getPath(notification, 'read');
  if (typeof read === 'boolean') return read;
  const readAt = getPath(notification, 'readAt');
  if (readAt === null) return false;
  return readAt === undefined ? undefined : true;
}
