import { PassThrough } from 'node:stream';
import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { IoStreams } from '../../src/output/terminal/io.js';
import { fitWidths } from '../../src/output/formats/table.js';
import { renderListing } from '../../src/output/formats/render.js';
import type { View } from '../../src/output/formats/view.js';
import { displayWidth, truncate } from '../../src/output/terminal/width.js';

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
    const columns = [
      { header: 'Title', path: 'title', flex: true },
      { header: 'Status', path: 'status' },
    ];
    const rows = [['A very long title that will not fit in a narrow terminal at all', 'COMPLETED']];
    const widths = fitWidths(columns, ['TITLE', 'STATUS'], rows, 40);
    expect(widths[1]).toBe('COMPLETED'.length);
    expect(widths[0]! + widths[1]! + 2).toBeLessThanOrEqual(40);
  });

  it('keeps 20 cells of a title and takes the rest from the other columns, widest first', () => {
    const columns = [
      { header: 'Title', path: 'title', flex: true },
      { header: 'Status', path: 'status' },
      { header: 'Id', path: 'id' },
    ];
    const rows = [['A very long title that will not fit in a narrow terminal at all', 'WATCHING · IN_PROGRESS', 'e14yBOe']];
    const widths = fitWidths(columns, ['TITLE', 'STATUS', 'ID'], rows, 44);
    expect(widths).toEqual([20, 44 - 4 - 20 - 7, 7]);
  });

  it('gives the title back the room a left-out column gave up: the row uses the terminal, not 20 cells of title', () => {
    const columns = [
      { header: 'Title', path: 'title', flex: true },
      { header: 'Status', path: 'status' },
      { header: 'Updated', path: 'updatedAt', dim: true },
      { header: 'Id', path: 'id' },
    ];
    const title = 'The Remarkably Long and Winding Chronicle of an Unexpectedly Eventful Journey';
    const rows = [[title, 'WATCHING · IN_PROGRESS', '2026-11-26T21:00:00.000Z', 'e14yBOe']];
    const widths = fitWidths(columns, ['TITLE', 'STATUS', 'UPDATED', 'ID'], rows, 60);
    expect(widths[2]).toBe(0);
    expect(widths[0]).toBeGreaterThan(20);
    expect(widths.reduce((sum, w) => sum + (w > 0 ? w + 2 : 0), -2)).toBe(60);
  });

  it('gives up a status\'s " · PHASE" before cutting into the status itself, or the title below 20', () => {
    const columns = [
      { header: 'Title', path: 'title', flex: true },
      { header: 'Status', path: 'status' },
    ];
    const rows = [['A very long title that will not fit in a narrow terminal at all', 'WATCHING · IN_PROGRESS']];
    expect(fitWidths(columns, ['TITLE', 'STATUS'], rows, 30)).toEqual([20, 'WATCHING'.length]);
  });
});

/** Renders items as the table format does on a terminal `columns` wide, page by page, without colour. */
async function tableOf(pages: unknown[][], view: View, columns = 80): Promise<string> {
  const stdout = new PassThrough();
  let text = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  const io = new IoStreams({ stdout, stderr: new PassThrough(), env: { COLUMNS: String(columns) }, color: 'never' });
  const options = {
    format: 'table' as const,
    fields: undefined,
    header: true,
    csvSafe: false,
    io,
    display: { now: Date.parse('2026-03-01T12:00:00Z'), colors: pc.createColors(false) },
  };
  async function* paged() {
    for (const [i, items] of pages.entries())
      yield { items, page: i + 1, hasMore: i < pages.length - 1, total: undefined, body: undefined, status: 200, headers: {} };
  }
  await renderListing(paged(), view, options, { paged: false });
  return text;
}

const twoColumns: View = {
  noun: ['item', 'items'],
  columns: [
    { header: 'Title', path: 'title', flex: true },
    { header: 'Score', path: 'score', align: 'right' },
    { header: 'ID', path: 'id' },
  ],
};

describe('the table format', () => {
  /** Display offset of `needle` in `line`. */
  const offsetOf = (line: string, needle: string) => displayWidth(line.slice(0, line.indexOf(needle)));

  it('keeps columns aligned after titles in Thai, Devanagari, Arabic, Japanese and emoji, measured by display width', async () => {
    const titles = ['ภาพยนตร์', 'फ़िल्म', 'فيلمٌ', '東京物語', '🎬 Film night', 'Amélie'];
    const text = await tableOf([titles.map((title, i) => ({ title, score: i, id: `id-${i}` }))], twoColumns);
    const lines = text.trimEnd().split('\n');
    const idAt = offsetOf(lines[0]!, 'ID');
    titles.forEach((_, i) => expect(offsetOf(lines[i + 1]!, `id-${i}`), lines[i + 1]).toBe(idAt));
  });

  it('draws no borders, pads no left edge and leaves no trailing blanks', async () => {
    const text = await tableOf(
      [
        [
          { title: 'Solaris', score: 9, id: 'a' },
          { title: 'Stalker', score: null, id: '' },
        ],
      ],
      twoColumns,
    );
    expect(text).toBe('TITLE    SCORE  ID\nSolaris      9  a\nStalker\n');
  });

  it("prints the header once and keeps the first page's widths on later pages, numbers on the right", async () => {
    const text = await tableOf(
      [[{ title: 'Short', score: 7, id: 'a' }], [{ title: 'A much longer title than the first page had', score: 10, id: 'b' }]],
      twoColumns,
    );
    expect(text).toBe('TITLE  SCORE  ID\nShort      7  a\nA mu…     10  b\n');
  });
});
