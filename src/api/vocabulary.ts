/** The API's fixed vocabulary (SPEC.md §3, §4): the values its query parameters take. */
export const DOMAINS = ['MEDIA', 'GAMES', 'BOOKS', 'MUSIC'] as const;
export const PHASES = ['PLANNED', 'IN_PROGRESS', 'DONE', 'DROPPED'] as const;
export const SORTS = ['added', 'title', 'rating', 'finished'] as const;
export const ORDERS = ['desc', 'asc'] as const;
