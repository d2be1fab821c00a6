import { describe, expect, it } from 'vitest';
import { csvSafeCell, sanitizeText } from '../../src/output/terminal/sanitize.js';
import { redactKeys } from '../../src/util/redact.js';

describe('text from the server', () => {
  it('loses every escape, bell, backspace and C1 control before reaching a terminal', () => {
    const hostile = 'Title\u001b]0;pwned\u0007\u001b[2J\b\u009b31m\r';
    const clean = sanitizeText(hostile);
    expect(clean).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(clean.startsWith('Title')).toBe(true);
  });

  it('guards spreadsheet formulas with --csv-safe and leaves other cells alone', () => {
    expect(csvSafeCell('=HYPERLINK("http://x","y")')).toBe('\'=HYPERLINK("http://x","y")');
    expect(csvSafeCell('+1')).toBe("'+1");
    expect(csvSafeCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvSafeCell('Dune')).toBe('Dune');
  });

  it('masks any key-shaped string in text about to be shown', () => {
    const key = `lk_${'a'.repeat(49)}`;
    expect(redactKeys(`bad key ${key}!`)).toBe(`bad key lk_aaa…aaaa!`);
  });
});
