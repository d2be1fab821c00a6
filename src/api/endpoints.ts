/**
 * docs/api.md's endpoints as data: every endpoint, the scope its key needs, and whether it answers with the paginated envelope.
 * A 403 names the missing scope from here; the listing commands are made from the same table (src/commands/).
 */
export interface Endpoint {
  /** The path, `{id}` standing for an id. */
  path: string;
  scope: string | undefined;
  /** docs/api.md calls it paginated (page, limit, the envelope). */
  paged: boolean;
}

export const ENDPOINTS = {
  me: { path: '/v1/me', scope: undefined, paged: false },
  library: { path: '/v1/library', scope: 'library:read', paged: true },
  entry: { path: '/v1/library/{id}', scope: 'library:read', paged: false },
  entryHistory: { path: '/v1/library/{id}/history', scope: 'library:read', paged: true },
  history: { path: '/v1/history', scope: 'library:read', paged: true },
  lists: { path: '/v1/lists', scope: 'lists:read', paged: true },
  list: { path: '/v1/lists/{id}', scope: 'lists:read', paged: false },
  calendar: { path: '/v1/calendar', scope: 'calendar:read', paged: false },
  stats: { path: '/v1/stats/summary', scope: 'stats:read', paged: false },
  reviews: { path: '/v1/reviews', scope: 'reviews:read', paged: true },
  profile: { path: '/v1/profile', scope: 'profile:read', paged: false },
  achievements: { path: '/v1/profile/achievements', scope: 'profile:read', paged: true },
  notifications: { path: '/v1/notifications', scope: 'notifications:read', paged: true },
  export: { path: '/v1/export', scope: 'export:read', paged: false },
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof ENDPOINTS;

/** The path of an endpoint for an id: encoded here, so an id can never reach another path. */
export function pathOf(name: EndpointName, id?: string): string {
  const { path } = ENDPOINTS[name];
  return id === undefined ? path : path.replace('{id}', encodeURIComponent(id));
}

const PATTERNS = Object.values(ENDPOINTS).map((endpoint): [RegExp, Endpoint] => [
  new RegExp(`^${endpoint.path.replace('{id}', '[^/]+')}/?$`),
  endpoint,
]);

/**
 * The scope a path under /v1 needs (docs/api.md, Keys and scopes), so that a 403 can name the one missing. A path docs/api.md does not list
 * (`lk api /v1/stats`) takes the scope of its area: the endpoints that share its first segment.
 */
export function scopeForPath(path: string): string | undefined {
  const exact = PATTERNS.find(([pattern]) => pattern.test(path))?.[1];
  if (exact) return exact.scope;
  const area = /^\/v1\/[^/?]+/.exec(path)?.[0];
  return area ? Object.values(ENDPOINTS).find((endpoint) => endpoint.path === area || endpoint.path.startsWith(`${area}/`))?.scope : undefined;
}
