/**
 * A help topic (`lk help formats`): the concepts behind the flags, written once as blocks and shown three ways: as
 * help text in the terminal (./render.ts), as sections of lk(1) (src/man) and as pages of docs/help/
 * (src/man/markdown.ts). A block is a paragraph, a two-column list (a term and what it means) or lines to copy
 * (examples), so that each surface can lay it out in its own way.
 */
export type TopicBlock =
  { readonly paragraph: string } | { readonly items: readonly (readonly [string, string])[] } | { readonly lines: readonly string[] };

export interface HelpTopic {
  readonly name: string;
  /** One line for `lk help`'s list of topics. */
  readonly summary: string;
  /** The man page section the topic becomes in lk(1). */
  readonly section: string;
  readonly blocks: readonly TopicBlock[];
}
