import type { HelpTopic, TopicBlock } from './topic.js';

/**
 * A topic as help text in the terminal: paragraphs from the left edge, items as two columns, lines to copy indented
 * (src/commands/help-layout.ts fitHelpText then wraps it to the terminal).
 */
export function topicText(topic: HelpTopic): string {
  return `${topic.name}: ${topic.summary}\n\n${topic.blocks.map(blockText).join('\n\n')}\n`;
}

function blockText(block: TopicBlock): string {
  if ('paragraph' in block) return block.paragraph;
  if ('lines' in block) return `Examples:\n${block.lines.map((line) => `  ${line}`).join('\n')}`;
  const width = Math.min(24, Math.max(...block.items.map(([term]) => term.length)));
  return block.items.map(([term, text]) => `  ${term.padEnd(width)}  ${text}`).join('\n');
}
