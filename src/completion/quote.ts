/** `it's` → `'it'\''s'`: one literal word for bash and zsh. */
export function singleQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** One line of help text, whatever the description held. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
