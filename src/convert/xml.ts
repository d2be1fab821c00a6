/**
 * Just enough XML writing for the MAL file: text and attribute escaping, and CDATA sections, all safe for any
 * string a server may send. XML 1.0 cannot carry most control characters even escaped, so they are dropped.
 */

// Tab, LF and CR are allowed; the rest of C0, lone surrogates and U+FFFE/U+FFFF are not.

const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The string without the characters XML 1.0 cannot hold. */
export function xmlChars(value: string): string {
  return value.replace(NOT_XML, '');
}

/** Escaped for element text or a double- or single-quoted attribute. */
export function escapeXml(value: string): string {
  return xmlChars(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** A CDATA section holding the string exactly; "]]>" inside it is split across two sections. */
export function cdata(value: string): string {
  return `<![CDATA[${xmlChars(value).replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}
