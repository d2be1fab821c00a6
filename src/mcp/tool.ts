import type { ResourceLink } from '@modelcontextprotocol/server';
import type * as z from 'zod';
import { DESCRIPTIONS } from './descriptions.js';
import type { McpMirror, ToolHost } from './mirror.js';

/**
 * What a tool of `lk mcp` is (tools.ts and overview-tools.ts list them): its input and output as zod schemas (sent as
 * JSON Schema), its description for the model (descriptions.ts), and what it runs for a call.
 */

export interface ToolCall {
  host: ToolHost;
  mirror: McpMirror;
  /** Aborted when the client cancels the call (notifications/cancelled) or the server stops. */
  signal: AbortSignal;
  /** Where this page starts in the listing (0 without a cursor). */
  offset: number;
  /** The cursor of the page that starts at `offset`. */
  cursorAt(offset: number): string;
}

export interface Tool {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  output: z.ZodObject;
  /** Its answers come a page at a time: it takes `cursor`. */
  paged: boolean;
  /** True where --live lets it ask the API. */
  live?: boolean;
  run(args: Record<string, unknown>, call: ToolCall): Promise<Record<string, unknown>> | Record<string, unknown>;
  /** A listing's entries as links to their resources (lk://entry/{id}), beside the answer's text. */
  links?(answer: Record<string, unknown>): ResourceLink[];
  /** The view (views.ts) a host with the MCP Apps extension shows its answer in: _meta.ui.resourceUri in tools/list. */
  view?(mirror: McpMirror): string;
}

export function tool<I extends z.ZodObject, O extends z.ZodObject>(spec: {
  name: keyof typeof DESCRIPTIONS;
  title: string;
  input: I;
  output: O;
  live?: boolean;
  run(args: z.output<I>, call: ToolCall): Promise<z.input<O>> | z.input<O>;
  links?(answer: Record<string, unknown>): ResourceLink[];
  view?(mirror: McpMirror): string;
}): Tool {
  return {
    ...spec,
    description: DESCRIPTIONS[spec.name],
    paged: 'cursor' in spec.input.shape,
    run: spec.run as Tool['run'],
  };
}
