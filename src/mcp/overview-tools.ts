import * as z from 'zod';
import type { NextItem } from '../overview/next.js';
import { nextReading, statusReading } from '../readings/composed.js';
import { DEFAULT_NEXT_LIMIT, MOST_NEXT_LIMIT } from '../readings/overview.js';
import { dataAsOfMirror, domain, jsonObject } from './listing.js';
import { linked } from './links.js';
import { ENTRY_ID, entryLinks } from './resource-links.js';
import type { McpMirror } from './mirror.js';
import { tool } from './tool.js';
import { STATUS_VIEW } from './views.js';

/** `next_up` and `status`: lk next and lk status --json, from the mirror, compact (no whole entry, its link instead). */

/**
 * An item of lk next with the entry's status, progress and link in place of the whole entry: the link as every tool
 * gives an item's (./links.ts: the entry's page, else its work's), as lk next's table links the title.
 */
export function compactNext({ entry, ...item }: NextItem) {
  const field = (name: string) => (entry as Record<string, unknown> | null)?.[name] ?? null;
  return { ...item, status: field('status'), progress: field('progress'), link: linked(entry).link };
}

const nextUpTool = tool({
  name: 'next_up',
  title: 'What to take up next',
  input: z.strictObject({
    domain,
    // lk next's bounds (MOST_NEXT_LIMIT), stated in the schema so that the model is told them.
    limit: z
      .number()
      .int()
      .min(1)
      .max(MOST_NEXT_LIMIT)
      .default(DEFAULT_NEXT_LIMIT)
      .describe(`how many entries in progress (1 to ${MOST_NEXT_LIMIT})`),
    random: z.boolean().default(false).describe('one PLANNED entry picked at random instead'),
    seed: z.number().int().min(0).optional().describe('with random: the same pick for the same seed and library'),
  }),
  output: z.object({
    items: z.array(jsonObject.describe('an entry in progress (lk next), with its status, progress and link')),
    total: z.number().nullable(),
    dataAsOf: z.string().nullable(),
  }),
  links: (answer) => entryLinks(answer.items, ENTRY_ID),
  run: async ({ domain, limit, random, seed }, { mirror }) => {
    // The mirror's source reads synchronously behind its promises: the whole answer comes from the one connection, at once.
    const { items, total } = await nextReading(mirror.readings, { domain, limit, random, seed }, true);
    return { items: items.map(compactNext), total, dataAsOf: mirror.read(dataAsOfMirror) };
  },
});

const statusTool = tool({
  name: 'status',
  title: 'What is going on',
  input: z.strictObject({}),
  output: z.object({ status: jsonObject.describe('lk status --json --offline'), dataAsOf: z.string().nullable() }),
  view: () => STATUS_VIEW,
  run: (_args, { mirror }) => readStatusOf(mirror),
});

/** lk status --json --offline from the mirror: the status tool's answer and lk://status. */
export async function readStatusOf(mirror: McpMirror): Promise<{ status: Record<string, unknown>; dataAsOf: string | null }> {
  const status = await statusReading(mirror.readings, { offline: true });
  return { status: status as unknown as Record<string, unknown>, dataAsOf: mirror.read(dataAsOfMirror) };
}

export const OVERVIEW_TOOLS = [nextUpTool, statusTool];
