import { DOMAINS, PHASES } from '../vocabulary.js';

/**
 * The filters a listing reading takes (./table.ts `takes`), each declared once: its name (the command's flag --NAME,
 * lk mcp's argument NAME), what it keeps, and its values. Every surface makes its own form from this declaration —
 * the command's flag (commands/options.ts filterFlags), the tool's argument schema (mcp/listing.ts filterArguments) —
 * so a filter says the same thing, and takes the same values, wherever it is offered.
 */

export type ListingFilter = 'domain' | 'phase' | 'from' | 'to';

export type FilterDeclaration =
  | {
      /** One of a fixed set: in any case on the command line, handed on as spelt in the set. */
      values: 'choice';
      choices: readonly string[];
      /** What it keeps, as help and a tool's schema say it. */
      keeps: string;
      /** The value's placeholder in help (`--domain <domain>`). */
      placeholder: string;
    }
  | {
      /** A day or a moment (each surface says the forms it reads: the command 7d and today too, a tool ISO 8601). */
      values: 'date';
      /** The edge of a day the bound stands for: a --to day includes the whole day. */
      edge: 'start' | 'end';
      keeps: string;
      placeholder: string;
    };

export const FILTERS: Record<ListingFilter, FilterDeclaration> = {
  domain: { values: 'choice', choices: DOMAINS, keeps: 'only this domain', placeholder: 'domain' },
  phase: { values: 'choice', choices: PHASES, keeps: 'only entries in this phase', placeholder: 'phase' },
  from: { values: 'date', edge: 'start', keeps: 'from this day or moment', placeholder: 'date' },
  to: { values: 'date', edge: 'end', keeps: 'up to this day (inclusive) or moment', placeholder: 'date' },
};
