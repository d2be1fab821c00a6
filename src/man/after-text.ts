import type { EventEmitter } from 'node:events';
import type { Command } from 'commander';

/**
 * The text a command's --help shows after its options (its notes, settings, examples: commander's addHelpText), as
 * blocks: what commander writes when the help is shown, asked of it through the command's 'afterHelp' event, which
 * addHelpText listens to. Written at the program's help width: make the program with a wide one, so that a paragraph
 * comes whole and roff fills it again.
 */
export type AfterBlock = { kind: 'heading'; text: string } | { kind: 'paragraph'; text: string } | { kind: 'lines'; lines: string[] };

export function afterText(command: Command): string {
  let text = '';
  // A Command is an EventEmitter (commander's own docs: "Command extends EventEmitter"), which its types leave out.
  (command as unknown as EventEmitter).emit('afterHelp', { error: false, command, write: (chunk: string) => (text += chunk) });
  return text;
}

/**
 * "Label:" alone on its line is a heading; lines from the left edge a paragraph (a "Label: text" one too); indented
 * lines (commands, examples, two-column lists) are kept as they are.
 */
export function afterBlocks(text: string): AfterBlock[] {
  const blocks: AfterBlock[] = [];
  const rows = text.split('\n');
  for (let at = 0; at < rows.length;) {
    const row = rows[at]!;
    if (row.trim() === '') {
      at += 1;
    } else if (/^\S[^:]*:$/.test(row)) {
      blocks.push({ kind: 'heading', text: row.slice(0, -1) });
      at += 1;
    } else if (/^\s/.test(row)) {
      const block: string[] = [];
      while (at < rows.length && /^\s/.test(rows[at]!) && rows[at]!.trim() !== '') block.push(rows[at++]!.replace(/^ {2}/, ''));
      blocks.push({ kind: 'lines', lines: block });
    } else {
      const block: string[] = [];
      // A paragraph goes on while lines start at the edge, or hang under its label ("Exit codes: 0 ok, …"): indented
      // as far as the text after it, as --help lays it out. Lines indented otherwise (a table) are a block of their own.
      const label = /^[^:]+:\s+(?=\S)/.exec(row)?.[0].length;
      while (at < rows.length && rows[at]!.trim() !== '' && (!/^\s/.test(rows[at]!) || block.length > 0) && !/^\S[^:]*:$/.test(rows[at]!)) {
        if (/^\s/.test(rows[at]!) && rows[at]!.length - rows[at]!.trimStart().length !== label) break;
        block.push(rows[at++]!.trim());
      }
      blocks.push({ kind: 'paragraph', text: block.join(' ') });
    }
  }
  return blocks;
}

/** The blocks under a heading, up to the next heading. */
export function blocksUnder(blocks: readonly AfterBlock[], heading: string): AfterBlock[] {
  const start = blocks.findIndex((block) => block.kind === 'heading' && block.text === heading);
  if (start === -1) return [];
  const end = blocks.findIndex((block, at) => at > start && block.kind === 'heading');
  return blocks.slice(start + 1, end === -1 ? undefined : end);
}
