import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestBed, type TestBed } from '../e2e/harness.js';
import { tempDir } from '../support/temp-dir.js';
import { describeWithSqlite, describeWithoutSqlite } from '../support/sqlite-node.js';

// Issue 46, one printer choice: lk report writes html and json, and its --format accepts exactly those (it was
// refused with a listing's formats).

describeWithoutSqlite(`on Node ${process.versions.node} (no node:sqlite)`, () => {
  it(`lk report --format html runs (and exits 1 naming Node 22.13 on Node ${process.versions.node}): accepted, not refused`, async () => {
    const bed = await startTestBed({ entries: 10 });
    try {
      const result = await bed.lk(['report', '--format', 'html', '--db', join(tempDir('lk-report-formats-'), 'none.db'), '-o', '-']);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^lk: lk report needs Node 22\.13 or later/);
    } finally {
      await bed.sandbox.close();
    }
  });
});

describeWithSqlite('lk report --format', () => {
  let bed: TestBed;
  let dir: string;
  let db: string;
  beforeAll(async () => {
    bed = await startTestBed({ entries: 60, rateLimit: 0, exportIntervalSeconds: 0 });
    dir = tempDir('lk-report-formats-');
    db = join(dir, 'mirror.db');
    expect((await bed.lk(['sync', '--db', db])).code).toBe(0);
  });
  afterAll(async () => {
    await bed.sandbox.close();
  });

  it('--format html -o FILE writes the HTML page, the same page as the default', async () => {
    const file = join(dir, 'named.html');
    const named = await bed.lk(['report', '--db', db, '--year', '2025', '--format', 'html', '-o', file]);
    expect(named.code, named.stderr).toBe(0);
    expect(named.stderr).toContain(`lk: wrote ${file}`);
    const page = readFileSync(file, 'utf8');
    expect(page).toMatch(/^<!doctype html>/i);
    const plain = join(dir, 'default.html');
    expect((await bed.lk(['report', '--db', db, '--year', '2025', '-o', plain])).code).toBe(0);
    // Dated in the page's corner, if at all, to the same day: compared without the time it was made.
    const undated = (text: string) => text.replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g, 'T');
    expect(undated(page)).toBe(undated(readFileSync(plain, 'utf8')));
  });

  it('--format json equals --json, and in any case (--format JSON)', async () => {
    const json = await bed.lk(['report', '--db', db, '--year', '2025', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(() => JSON.parse(json.stdout)).not.toThrow();
    const undated = (text: string) => text.replace(/"generatedAt":"[^"]*"/g, '"generatedAt":""');
    for (const spelt of ['json', 'JSON']) {
      const named = await bed.lk(['report', '--db', db, '--year', '2025', '--format', spelt]);
      expect(named.code, named.stderr).toBe(0);
      expect(undated(named.stdout)).toBe(undated(json.stdout));
    }
  });

  it('a format it does not write is refused naming the ones it does, exit 2, and no file', async () => {
    const file = join(dir, 'refused.html');
    const unknown = await bed.lk(['report', '--db', db, '--format', 'xml', '-o', file]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("lk: option '--format <format>' argument 'xml' is invalid. Allowed choices are html, json.\n");
    const listing = await bed.lk(['report', '--db', db, '--format', 'csv', '-o', file]);
    expect(listing.code).toBe(2);
    expect(listing.stderr).toBe('lk: --format csv does not apply to lk report (it writes html, json)\n');
    expect(existsSync(file)).toBe(false);
  });
});
