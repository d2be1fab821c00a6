/**
 * The text of a statement of the user's, read before SQLite compiles it. node:sqlite's prepare() compiles the first
 * statement and silently drops the rest ("SELECT 1; DELETE FROM entries" would run the SELECT and say nothing of the
 * DELETE), so lk sql finds where the first one ends itself: at a `;` outside quotes ('…', "…", `…`, […]) and comments.
 */

/** The text after the first statement when it holds more than whitespace, comments and `;`: another statement. */
export function textAfterFirstStatement(sql: string): string | undefined {
  const end = firstStatementEnd(sql);
  if (end === undefined) return undefined;
  const rest = sql.slice(end + 1);
  return withoutComments(rest).replace(/[\s;]+/g, '') === '' ? undefined : rest.trim();
}

/** The statement with its comments and trailing `;` taken out, for reading its leading keywords. */
export function statementCore(sql: string): string {
  const end = firstStatementEnd(sql);
  return withoutComments(end === undefined ? sql : sql.slice(0, end)).trim();
}

const CLOSING: Record<string, string> = { "'": "'", '"': '"', '`': '`', '[': ']' };

/** Index of the `;` that ends the first statement, or undefined when there is none. */
function firstStatementEnd(sql: string): number | undefined {
  let found: number | undefined;
  scan(sql, (char, at) => {
    if (char === ';') found = at;
    return found === undefined;
  });
  return found;
}

/** The text with each comment replaced by a space (quoted text kept as it is). */
function withoutComments(sql: string): string {
  let out = '';
  scan(sql, (char) => {
    out += char;
    return true;
  });
  return out;
}

/**
 * Calls `visit` with each character outside comments (a comment is one space), quoted text passed whole as one
 * string; stops when `visit` returns false.
 */
function scan(sql: string, visit: (text: string, at: number) => boolean): void {
  let i = 0;
  while (i < sql.length) {
    const char = sql[i]!;
    const next = sql[i + 1];
    if (char === '-' && next === '-') {
      const end = sql.indexOf('\n', i + 2);
      i = end === -1 ? sql.length : end;
      if (!visit(' ', i)) return;
      continue;
    }
    if (char === '/' && next === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end === -1 ? sql.length : end + 2;
      if (!visit(' ', i)) return;
      continue;
    }
    const closing = CLOSING[char];
    if (closing !== undefined) {
      // A doubled closing quote ('it''s') stays inside the text.
      let end = i + 1;
      for (;;) {
        end = sql.indexOf(closing, end);
        if (end === -1 || closing === ']' || sql[end + 1] !== closing) break;
        end += 2;
      }
      const stop = end === -1 ? sql.length : end + 1;
      if (!visit(sql.slice(i, stop), i)) return;
      i = stop;
      continue;
    }
    if (!visit(char, i)) return;
    i += 1;
  }
}
