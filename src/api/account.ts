import { getPath } from '../output/fields.js';

/** The account's name in a GET /v1/me answer (SPEC.md names the account but not its fields): username, else id. */
export function accountName(me: unknown): string | undefined {
  const username = getPath(me, 'account.username') ?? getPath(me, 'account.id');
  return username === undefined || username === null || username === '' ? undefined : String(username);
}
