import type { Sandbox } from '../../src/sandbox/index.js';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

export interface CallOptions {
  /** Demo key name, a raw Authorization value via `authorization`, or null for no header. */
  key?: string | null;
  authorization?: string;
  method?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** One HTTP call to the sandbox, with the JSON body parsed when there is one. */
export async function call<T = any>(sandbox: Sandbox, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  const keyName = options.key === undefined ? 'full' : options.key;
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  else if (keyName !== null) headers.authorization = `Bearer ${sandbox.key(keyName)}`;
  const response = await fetch(sandbox.url + path, { method: options.method ?? 'GET', headers, signal: options.signal });
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: body as T };
}

/** Every item of a paginated endpoint, following hasMore with limit=100. */
export async function all<T = any>(sandbox: Sandbox, path: string, key = 'full'): Promise<T[]> {
  const items: T[] = [];
  const join = path.includes('?') ? '&' : '?';
  for (let page = 1; ; page += 1) {
    const response = await call<{ items: T[]; hasMore: boolean }>(sandbox, `${path}${join}limit=100&page=${page}`, { key });
    if (response.status !== 200) throw new Error(`${path} page ${page}: HTTP ${response.status} ${response.text}`);
    items.push(...response.body.items);
    if (!response.body.hasMore) return items;
  }
}

/** A settable clock for the `now` option. */
export function clock(start: number): { now: () => number; set(ms: number): void; advance(ms: number): void } {
  let current = start;
  return {
    now: () => current,
    set: (ms) => {
      current = ms;
    },
    advance: (ms) => {
      current += ms;
    },
  };
}

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** 2026-03-15T12:00:00Z: the fixed "now" of most sandbox tests. */
export const NOW = Date.UTC(2026, 2, 15, 12, 0, 0);
