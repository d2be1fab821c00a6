import * as z from 'zod';
import { tasteReading } from '../readings/composed.js';
import { dataAsOfMirror, domain } from './listing.js';
import type { McpMirror } from './mirror.js';
import { tool } from './tool.js';

/**
 * The account's taste, for recommendations: the recommend tool, and the recommend prompt's data (prompts.ts), one
 * reading (readings/composed.ts tasteReading) for both, so a client without prompts reaches it as a tool. No note,
 * no review's text: titles, domains, ratings and dates.
 */

/** What the prompt asks of the model (the tool's description says it too). */
export const RECOMMEND_ASK =
  'Suggest works I do not have in my library yet that I am likely to enjoy, each with a short reason tied to what I rated highly, finished lately or dropped (say which). Leave out anything listed here; where you can search my library, leave out what it holds.';

const nullableText = z.string().nullable();
const work = z.object({
  title: nullableText,
  domain: nullableText,
  type: nullableText.describe('film, series, book, game, album…'),
  year: z.number().nullable(),
  rating: z.number().nullable(),
  at: nullableText.optional().describe('when it was finished (recentlyFinished) or last changed (dropped), ISO 8601'),
});
const profile = z.object({
  domain: nullableText.describe('the domain asked for, or null for all'),
  entries: z.object({ total: z.number(), done: z.number(), dropped: z.number(), rated: z.number() }),
  ratings: z.object({
    average: z.number().nullable(),
    lowest: z.number().nullable(),
    median: z.number().nullable(),
    highest: z.number().nullable(),
    counts: z.array(z.object({ rating: z.number(), entries: z.number() })).describe('how many entries have each rating, in whole points'),
  }),
  topRated: z.array(work).describe('the best rated works, best first (at most 20)'),
  recentlyFinished: z.array(work).describe('the works finished last, newest first (at most 15)'),
  dropped: z.array(work).describe('works dropped, most recent first (at most 10)'),
  dataAsOf: z.string().nullable(),
});

/** The taste profile of the account (of one domain), with how fresh the mirror is. */
export async function tasteOf(mirror: McpMirror, domain: string | undefined): Promise<z.input<typeof profile>> {
  return { ...(await tasteReading(mirror.readings, { domain })), dataAsOf: mirror.read(dataAsOfMirror) };
}

export const recommendTool = tool({
  name: 'recommend',
  title: 'A taste profile to recommend from',
  input: z.strictObject({ domain }),
  output: profile,
  run: ({ domain }, { mirror }) => tasteOf(mirror, domain),
});
