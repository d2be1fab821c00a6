import { audienceOf } from './audience.js';

/**
 * A list is public only when marked so (visibility "public", public: true, isPublic: true: audience.ts) and marked
 * private by none: a list with no marking at all is not public, since nothing says its owner shared it. Only a public
 * list may reach a public surface, its name, description and items with it.
 */
export const listIsPublic = (list: unknown): boolean => audienceOf(list) === 'public';
