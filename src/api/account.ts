import { getPath } from '../util/object-path.js';
import type { ApiClient, ApiResponse } from './client.js';
import { pathOf } from './endpoints.js';

/** The account's name in a GET /v1/me answer (docs/api.md names the account but not its fields): username, else id. */
export function accountName(me: unknown): string | undefined {
  const username = getPath(me, 'account.username') ?? getPath(me, 'account.id');
  return username === undefined || username === null || username === '' ? undefined : String(username);
}

/**
 * GET /v1/me, and remember whose key this is: the export cache names its files after the account, and the rate-limit
 * budget, shared by all of an account's keys, is kept per account once known.
 */
export async function fetchMe(client: ApiClient, key: string): Promise<ApiResponse> {
  const me = await client.get(pathOf('me'));
  const account = accountName(me.json);
  if (account) client.accounts?.remember(key, account);
  return me;
}
