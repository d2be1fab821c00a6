import { accountNames } from '../items/account.js';
import type { ApiClient, ApiResponse } from './client.js';
import { pathOf } from './endpoints.js';

/** The account a GET /v1/me answer names, as lk keys its files and budget by it (items/account.ts says why). */
export const accountName = (me: unknown): string | undefined => accountNames(me).key;

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
