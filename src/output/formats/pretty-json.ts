import type { Colors } from '../terminal/colors.js';

/**
 * JSON for a person at a terminal: indented two spaces like `JSON.stringify(value, null, 2)` and coloured like jq
 * (keys bold blue, strings green, null dim). It works on the JSON text, not on a parsed value, so that every number
 * and string keeps the exact spelling the server or jq gave it. Pipes never see this: they get the bytes unchanged.
 */

export interface PrettyOptions {
  colors: Colors;
  /** Indent nested lines; false keeps a compact value on one line and only colours it (--jq's one value a line). */
  indent?: boolean;
  /** Nesting depth of the value, for an item inside a listing's array: its inner lines are indented that much more. */
  depth?: number;
}

// C1 controls, DEL and the bidi overrides are valid unescaped inside a JSON string, yet a terminal obeys them.
const UNSAFE_IN_STRING = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Whether `text` is one JSON document (possibly surrounded by whitespace); only then may it be re-laid out. */
export function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Re-lays out valid JSON text; the caller checks validity (isJsonText) when the text comes from outside. */
export function prettyJson(text: string, options: PrettyOptions): string {
  const { colors } = options;
  const indent = options.indent !== false;
  let depth = options.depth ?? 0;
  let out = '';
  const newline = (level: number) => (indent ? `\n${'  '.repeat(level)}` : '');
  const nextSignificant = (from: number): string => {
    let j = from;
    while (j < text.length && /\s/.test(text[j]!)) j++;
    return text[j] ?? '';
  };
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (char === ' ' || char === '\n' || char === '\r' || char === '\t') {
      i++;
      continue;
    }
    if (char === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const token = text.slice(i, j + 1).replace(UNSAFE_IN_STRING, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
      i = j + 1;
      out += nextSignificant(i) === ':' ? colors.bold(colors.blue(token)) : colors.green(token);
      continue;
    }
    if (char === '{' || char === '[') {
      const close = char === '{' ? '}' : ']';
      if (nextSignificant(i + 1) === close) {
        out += colors.bold(char + close);
        i = text.indexOf(close, i + 1) + 1;
        continue;
      }
      depth++;
      out += colors.bold(char) + newline(depth);
      i++;
      continue;
    }
    if (char === '}' || char === ']') {
      depth--;
      out += newline(depth) + colors.bold(char);
      i++;
      continue;
    }
    if (char === ',') {
      out += colors.bold(',') + (indent ? newline(depth) : '');
      i++;
      continue;
    }
    if (char === ':') {
      out += colors.bold(':') + (indent ? ' ' : '');
      i++;
      continue;
    }
    // A number, true, false or null: everything up to the next delimiter.
    let j = i;
    while (j < text.length && !/[\s,:\]}]/.test(text[j]!)) j++;
    const token = text.slice(i, j);
    out += token === 'null' ? colors.dim(token) : token;
    i = j;
  }
  return out;
}
