/**
 * Text within a service's limit: cut at a character (never inside one), ending with an ellipsis when cut, so that a
 * long message arrives shortened rather than refused for ever.
 */
export function capChars(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** The same within a number of UTF-8 bytes (ntfy counts bytes). */
export function capBytes(text: string, max: number): string {
  if (Buffer.byteLength(text) <= max) return text;
  let out = '';
  let size = Buffer.byteLength('…');
  for (const char of text) {
    size += Buffer.byteLength(char);
    if (size > max) break;
    out += char;
  }
  return `${out}…`;
}
