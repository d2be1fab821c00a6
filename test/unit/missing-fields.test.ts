import { PassThrough } from 'node:stream';
import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { pageOf } from '../../src/api/paginate.js';
import { IoStreams } from '../../src/output/terminal/io.js';
import { renderListing } from '../../src/output/formats/render.js';
import { humanise, sectionsText } from '../../src/output/formats/sections.js';
import * as views from '../../src/output/wording/views.js';
import type { View } from '../../src/output/formats/view.js';
import type { OutputFormat } from '../../src/output/formats/writer.js';

/** Renders items through a real formatter into a string, as a terminal 80 columns wide would get it. */
async function render(items: unknown[], view: View, format: OutputFormat): Promise<string> {
  const stdout = new PassThrough();
  let text = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  const io = new IoStreams({ stdout, stderr: new PassThrough(), env: { COLUMNS: '80' }, color: 'never' });
  const options = {
    format,
    fields: undefined,
    header: true,
    csvSafe: false,
    io,
    display: { now: Date.parse('2026-03-01T12:00:00Z'), colors: pc.createColors(false) },
  };
  await renderListing(pageOf(items), view, options, { paged: false });
  return text;
}

const allViews = Object.entries(views).filter(
  (entry): entry is [string, View] => typeof entry[1] === 'object' && entry[1] !== null && 'columns' in entry[1],
);

// Items that carry only an id, or nothing, or nulls where objects are expected: what a real instance may send.
const sparse = [{ id: 'a1' }, {}, { id: 'a3', work: null, progress: null, dates: null, episode: null, rating: null }];

describe('fields SPEC.md does not name may be missing', () => {
  it('knows every view it checks', () => {
    expect(allViews.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'entryView',
        'historyView',
        'listView',
        'listItemView',
        'calendarView',
        'reviewView',
        'achievementView',
        'notificationView',
      ]),
    );
  });

  for (const format of ['table', 'plain', 'tsv', 'csv'] as const) {
    it.each(allViews)(`%s in ${format}: a missing field is an empty cell, never "undefined" or a crash`, async (_name, view) => {
      const text = await render(sparse, view, format);
      expect(text).not.toMatch(/undefined|NaN|\[object Object\]/);
      const lines = text.replace(/\n$/, '').split('\n');
      const headerRows = format === 'plain' ? 0 : 1;
      expect(lines).toHaveLength(sparse.length + headerRows);
      if (format === 'table') expect(lines.every((line) => line.length <= 80)).toBe(true);
    });
  }

  it('stats sections render any shape: nested objects, arrays, nulls, numbers as 1,234', () => {
    const text = sectionsText(
      {
        totalEntries: 1234,
        rating: null,
        byDomain: { MEDIA: { entries: 1000, minutes: 123456.5 }, GAMES: {} },
        top: [{ name: 'Dune', count: 3 }],
        tags: ['a', 'b'],
      },
      { now: Date.parse('2026-03-01T12:00:00Z'), colors: pc.createColors(false) },
      80,
    );
    expect(text).toContain('Total entries  1,234');
    expect(text).toMatch(/^By domain$/m);
    expect(text).toContain('123,456.5');
    expect(text).toMatch(/^Top$/m);
    expect(text).toContain('Tags');
    expect(text).not.toMatch(/undefined|null|\[object Object\]/);
  });

  it('headings read as words, domain names stay as they are', () => {
    expect(humanise('totalMinutes')).toBe('Total minutes');
    expect(humanise('by_domain')).toBe('By domain');
    expect(humanise('MEDIA')).toBe('MEDIA');
  });
});
