import { UsageError } from '../util/errors.js';

/**
 * gh's aliases (`gh alias set`): an expansion is either lk's own words, with `$1`, `$2`… replaced by the arguments
 * given after the alias and the arguments no placeholder took appended; or, starting with `!`, a line for `sh`,
 * which gets the arguments as its own "$1", "$2"… (and "$@").
 */
export type Expansion =
  { readonly kind: 'lk'; readonly args: string[] } | { readonly kind: 'shell'; readonly script: string; readonly args: string[] };

/** The mark of a shell alias in the config file, as gh stores it. */
export const SHELL_MARK = '!';

export function isShellAlias(expansion: string): boolean {
  return expansion.startsWith(SHELL_MARK);
}

export function expandAlias(name: string, expansion: string, args: readonly string[]): Expansion {
  if (isShellAlias(expansion)) return { kind: 'shell', script: expansion.slice(SHELL_MARK.length), args: [...args] };
  const used = new Set<number>();
  const words = splitWords(expansion).map((word) =>
    word.replace(/\$(\d+)/g, (placeholder, digits: string) => {
      const index = Number(digits) - 1;
      const value = args[index];
      if (index < 0 || value === undefined) throw new UsageError(`alias ${name} needs an argument for ${placeholder}: ${expansion}`);
      used.add(index);
      return value;
    }),
  );
  return { kind: 'lk', args: [...words, ...args.filter((_, index) => !used.has(index))] };
}

/**
 * The words of an expansion as a POSIX shell would split them, without running anything: blanks separate words,
 * '…' keeps everything as it is, "…" and a backslash escape. `lk alias set` checks an expansion with it too, so a
 * stored one always splits.
 */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!;
    if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (char === "'") {
      const end = text.indexOf("'", at + 1);
      if (end === -1) throw new UsageError(`unclosed ' in the alias: ${text}`);
      word = (word ?? '') + text.slice(at + 1, end);
      at = end;
    } else if (char === '"') {
      let inner = '';
      for (at += 1; at < text.length && text[at] !== '"'; at++) {
        if (text[at] === '\\' && at + 1 < text.length && '"\\$`'.includes(text[at + 1]!)) at += 1;
        inner += text[at]!;
      }
      if (at >= text.length) throw new UsageError(`unclosed " in the alias: ${text}`);
      word = (word ?? '') + inner;
    } else if (char === '\\' && at + 1 < text.length) {
      word = (word ?? '') + text[++at]!;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}
