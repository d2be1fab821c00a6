import { firstOf, getPath } from '../util/object-path.js';
import { audienceOf, isOn } from './audience.js';
import { text } from './values.js';

/**
 * A review: its text, and whether the public may read it. A review is withheld from every public surface (lk feed
 * --public, every address of lk serve) when it is private in any spelling (audience.ts) or marked as a spoiler in any
 * spelling below; an unmarked review is public, as the web app shows reviews. The owner's own surfaces (the command
 * line, lk mcp) show it whole.
 */

/** Where a review's title is, first present first (the alt variant says headline). */
export const REVIEW_TITLE_PATHS = ['title', 'headline', 'summary'] as const;
/** Where a review's body is, first present first. */
export const REVIEW_BODY_PATHS = ['body', 'text', 'content'] as const;
/** Members that, true, mark a review as a spoiler. */
export const SPOILER_FLAGS = ['spoiler', 'containsSpoilers', 'hasSpoilers'] as const;

export const reviewTitleOf = (review: unknown): string | null => text(firstOf(review, REVIEW_TITLE_PATHS));
export const reviewBodyOf = (review: unknown): string | null => text(firstOf(review, REVIEW_BODY_PATHS));

/** Marked private (or not public) in any spelling. */
export const reviewIsPrivate = (review: unknown): boolean => audienceOf(review) === 'not public';

/** Marked as a spoiler in any spelling. */
export const reviewIsSpoiler = (review: unknown): boolean => SPOILER_FLAGS.some((member) => isOn(getPath(review, member)));

/** Its text kept from the public: private, or a spoiler. */
export const reviewWithheld = (review: unknown): boolean => reviewIsPrivate(review) || reviewIsSpoiler(review);
