import type { Exchange } from '../../api/client.js';

/** The -v line for one request: method, path and query, status, time, and the budget the server reported. */
export function verboseLine({ url, status, ms, budget, at, proxy }: Exchange): string {
  const limit = budget ? ` · ${budget.remaining}/${budget.limit} left, reset ${Math.max(0, Math.round((budget.resetAt - at) / 1000))}s` : '';
  return `lk: GET ${url.pathname}${url.search} → ${status} in ${ms} ms${limit}${proxy ? ` · via proxy ${proxy}` : ''}`;
}
