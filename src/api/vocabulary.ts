/** The API's fixed vocabulary (docs/api.md, Statuses and phases and Endpoints): the values its query parameters take. Domains and phases: src/vocabulary.ts. */
export { DOMAINS, PHASES } from '../vocabulary.js';
export const SORTS = ['added', 'title', 'rating', 'finished'] as const;
export const ORDERS = ['desc', 'asc'] as const;
