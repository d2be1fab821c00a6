import * as z from 'zod';

/**
 * Pages of a listing tool: at most PAGE_SIZE items unless `limit` says otherwise, and a `nextCursor` while more remain.
 * A cursor is opaque to the assistant: the tool, the arguments of the listing and where the next page starts, in
 * base64url JSON. Calling the same tool with it continues that listing; anything else in it is refused, by name.
 */

export const PAGE_SIZE = 50;
export const MOST_PER_PAGE = 200;

export const cursorArgument = z
  .string()
  .min(1)
  .optional()
  .describe('nextCursor of the previous answer, to continue the same listing (the other arguments may be left out)');

/** Thrown for a cursor that is not one this tool gave, or that continues other arguments. */
export class CursorRefused extends Error {}

interface CursorContent {
  tool: string;
  args: Record<string, unknown>;
  offset: number;
}

const cursorShape = z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()), offset: z.number().int().min(0) });

export function encodeCursor(content: CursorContent): string {
  return Buffer.from(JSON.stringify(content)).toString('base64url');
}

/**
 * The arguments a call with a cursor continues: the listing's own, with the page size the call gives, if any. Other
 * arguments the call names must be the listing's own.
 */
export function continuation(tool: string, given: Record<string, unknown>): { args: Record<string, unknown>; offset: number } {
  const content = decode(given.cursor);
  if (content.tool !== tool)
    throw new CursorRefused(`cursor: it continues ${content.tool}, not ${tool}; call ${content.tool} with it, or ${tool} without it`);
  const ownPageSize: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(given)) {
    if (name === 'cursor') continue;
    if (PAGE_SIZE_ARGUMENTS.has(name)) ownPageSize[name] = value;
    else if (JSON.stringify(value) !== JSON.stringify(content.args[name]))
      throw new CursorRefused(
        `cursor: it continues a listing with other arguments (${name}); repeat them unchanged or leave them out, or call without cursor to start over`,
      );
  }
  return { args: { ...content.args, ...ownPageSize }, offset: content.offset };
}

const PAGE_SIZE_ARGUMENTS = new Set(['limit', 'max_rows']);

function decode(cursor: unknown): CursorContent {
  try {
    if (typeof cursor !== 'string') throw new TypeError('not a string');
    return cursorShape.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw new CursorRefused(
      'cursor: not a cursor this server gave; pass nextCursor from the previous answer unchanged, or call without cursor to start over',
    );
  }
}
