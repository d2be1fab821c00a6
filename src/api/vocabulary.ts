/** The API's fixed vocabulary (SPEC.md §3, §4): the values its query parameters take. Domains and phases: src/vocabulary.ts. */
export { DOMAINS, PHASES } from '../vocabulary.js';
export const SORTS = ['added', 'title', 'rating', 'finished'] as const;
export const ORDERS = ['desc', 'asc'] as const;
