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
/** Where a review's body is, first present first (lk convert's exports say review). */
export const REVIEW_BODY_PATHS = ['body', 'text', 'content', 'review'] as const;
/** Members that, true, mark a review as a spoiler. */
export const SPOILER_FLAGS = ['spoiler', 'containsSpoilers', 'hasSpoilers'] as const;

/** Where the reviewed work's title is: the review's work, or its entry's. */
export const REVIEW_WORK_TITLE_PATHS = ['work.title', 'entry.work.title'] as const;
/** Where its rating is: its own, or its entry's. */
export const REVIEW_RATING_PATHS = ['rating', 'entry.rating'] as const;
/** Where the date it was written is (the alt variant says publishedAt). */
export const REVIEW_DATE_PATHS = ['createdAt', 'publishedAt', 'created', 'date', 'dates.created'] as const;
/** What heads it in a line: its title, else its body. */
export const REVIEW_HEADLINE_PATHS = [...REVIEW_TITLE_PATHS, ...REVIEW_BODY_PATHS] as const;

export const reviewTitleOf = (review: unknown): string | null => text(firstOf(review, REVIEW_TITLE_PATHS));
export const reviewBodyOf = (review: unknown): string | null => text(firstOf(review, REVIEW_BODY_PATHS));
export const reviewWorkTitleOf = (review: unknown): unknown => firstOf(review, REVIEW_WORK_TITLE_PATHS);
export const reviewRatingOf = (review: unknown): unknown => firstOf(review, REVIEW_RATING_PATHS);
export const reviewDateOf = (review: unknown): unknown => firstOf(review, REVIEW_DATE_PATHS);
/** How many liked it, as sent. */
export const reviewLikesOf = (review: unknown): unknown => firstOf(review, ['likes']);
export const reviewHeadlineOf = (review: unknown): unknown => firstOf(review, REVIEW_HEADLINE_PATHS);

/** Marked private (or not public) in any spelling. */
export const reviewIsPrivate = (review: unknown): boolean => audienceOf(review) === 'not public';

/** Marked as a spoiler in any spelling. */
export const reviewIsSpoiler = (review: unknown): boolean => SPOILER_FLAGS.some((member) => isOn(getPath(review, member)));

/** Its text kept from the public: private, or a spoiler. */
export const reviewWithheld = (review: unknown): boolean => reviewIsPrivate(review) || reviewIsSpoiler(review);
