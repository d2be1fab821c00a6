import { describe, expect, it } from 'vitest';
import { fitWidths } from '../../src/output/formats/table.js';
import { displayWidth, truncate } from '../../src/output/width.js';

describe('table fitting', () => {
  it('measures East Asian wide characters and emoji as two cells', () => {
    expect(displayWidth('東京')).toBe(4);
    expect(displayWidth('🎬')).toBe(2);
    expect(displayWidth('abc')).toBe(3);
  });

  it('cuts by display width and marks the cut with …', () => {
    expect(truncate('東京物語', 5)).toBe('東京…');
    expect(displayWidth(truncate('東京物語', 5))).toBeLessThanOrEqual(5);
    expect(truncate('short', 10)).toBe('short');
  });

  it('shrinks the flexible column first so that a row fits the terminal', () => {
    const columns = [{ header: 'Title', path: 'title', flex: true }, { header: 'Status', path: 'status' }];
    const rows = [['A very long title that will not fit in a narrow terminal at all', 'COMPLETED']];
    const widths = fitWidths(columns, ['TITLE', 'STATUS'], rows, 40);
    expect(widths[1]).toBe('COMPLETED'.length);
    expect(widths[0]! + widths[1]! + 2).toBeLessThanOrEqual(40);
  });
});
