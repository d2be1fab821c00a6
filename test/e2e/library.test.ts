import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusedBeforeAnyRequest, ndjsonLines, startTestBed, type TestBed } from './harness.js';

let bed: TestBed;

beforeAll(async () => {
  bed = await startTestBed({ entries: 230, rateLimit: 0 });
});

afterAll(async () => {
  await bed.sandbox.close();
});

interface Entry {
  id: string;
  status: string;
  phase: string;
  work: { title: string; domain?: string };
}

describe('lk library', () => {
  it("--all --json returns exactly the account's entries, each once, as many as total", async () => {
    const result = await bed.lk(['library', '--all', '--json']);
    expect(result.code).toBe(0);
    const entries = JSON.parse(result.stdout) as Entry[];
    const ids = entries.map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...bed.sandbox.entryIds('demo')].sort());
    expect(ids).toHaveLength(230);
  });

  it('--all pages with limit=100: ceil(total/100) requests', async () => {
    bed.sandbox.resetCounters();
    const result = await bed.lk(['library', '--all', '--ndjson']);
    expect(result.code).toBe(0);
    expect(ndjsonLines(result.stdout)).toHaveLength(230);
    expect(bed.sandbox.counters.byPath['/v1/library']).toBe(3);
  });

  it('--phase DONE keeps only COMPLETED, UP_TO_DATE, READ and LISTENED', async () => {
    const result = await bed.lk(['library', '--phase', 'DONE', '--all', '--json']);
    expect(result.code).toBe(0);
    const entries = JSON.parse(result.stdout) as Entry[];
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      expect(['COMPLETED', 'UP_TO_DATE', 'READ', 'LISTENED']).toContain(entry.status);
      expect(entry.phase).toBe('DONE');
    }
  });

  it('--limit and --page read one page; --max stops after N items across pages', async () => {
    const page2 = JSON.parse((await bed.lk(['library', '--limit', '7', '--page', '2', '--json'])).stdout) as Entry[];
    expect(page2).toHaveLength(7);
    const first14 = JSON.parse((await bed.lk(['library', '--limit', '7', '--max', '14', '--json'])).stdout) as Entry[];
    expect(first14.map((e) => e.id).slice(7)).toEqual(page2.map((e) => e.id));
    const max150 = JSON.parse((await bed.lk(['library', '--max', '150', '--json'])).stdout) as Entry[];
    expect(max150).toHaveLength(150);
  });

  it('--sort title --order asc reverses the natural A to Z order', async () => {
    const natural = JSON.parse((await bed.lk(['library', '--sort', 'title', '--all', '--json'])).stdout) as Entry[];
    const reversed = JSON.parse((await bed.lk(['library', '--sort', 'title', '--order', 'asc', '--all', '--json'])).stdout) as Entry[];
    expect(reversed.map((e) => e.id)).toEqual(natural.map((e) => e.id).reverse());
  });

  it('csv output parses back to the same rows as json', async () => {
    const json = JSON.parse((await bed.lk(['library', '--limit', '25', '--json'])).stdout) as Entry[];
    const csv = await bed.lk(['library', '--limit', '25', '--csv']);
    expect(csv.code).toBe(0);
    const rows = parse(csv.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(json.length);
    rows.forEach((row, i) => {
      expect(row.id).toBe(json[i]!.id);
      expect(row['work.title']).toBe(json[i]!.work.title);
      expect(row.status).toBe(json[i]!.status);
    });
  });

  it('--fields picks dot paths in json, csv and tsv alike', async () => {
    const json = JSON.parse((await bed.lk(['library', '--limit', '3', '--json', '--fields', 'id,work.title'])).stdout) as unknown[];
    expect(Object.keys(json[0] as object)).toEqual(['id', 'work']);
    expect(Object.keys((json[0] as { work: object }).work)).toEqual(['title']);
    const tsv = (await bed.lk(['library', '--limit', '3', '--tsv', '--fields', 'id,work.title'])).stdout.trimEnd().split('\n');
    expect(tsv[0]).toBe('id\twork.title');
    expect(tsv).toHaveLength(4);
    const noHeader = (await bed.lk(['library', '--limit', '3', '--csv', '--no-header', '--fields', 'id'])).stdout.trimEnd().split('\n');
    expect(noHeader).toHaveLength(3);
  });

  it('in a pipe with no format named, prints plain tab-separated rows with no header and no colour', async () => {
    const result = await bed.lk(['library', '--limit', '5'], { env: { FORCE_COLOR: undefined } });
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines.every((line) => line.split('\t').length === 7)).toBe(true);
    expect(result.stdout).not.toContain('\u001b');
    expect(result.stderr).toBe('');
  });

  it('show ID prints one entry; an unknown id exits 6 naming it', async () => {
    const [id] = bed.sandbox.entryIds('demo');
    const shown = await bed.lk(['library', 'show', id!, '--json']);
    expect(shown.code).toBe(0);
    expect((JSON.parse(shown.stdout) as Entry).id).toBe(id);
    const missing = await bed.lk(['library', 'show', 'nope404']);
    expect(missing.code).toBe(6);
    expect(missing.stderr).toContain('no library entry nope404');
  });

  it('history ID lists undated events last', async () => {
    const ids = bed.sandbox.entryIds('demo');
    for (const id of ids.slice(0, 60)) {
      const result = await bed.lk(['library', 'history', id, '--all', '--json']);
      expect(result.code).toBe(0);
      const events = JSON.parse(result.stdout) as Array<{ date: string | null }>;
      const firstUndated = events.findIndex((event) => event.date === null);
      if (firstUndated >= 0 && firstUndated < events.length - 1) {
        expect(events.slice(firstUndated).every((event) => event.date === null)).toBe(true);
      }
      if (firstUndated >= 0) return;
    }
    throw new Error('no entry with an undated event in the first 60');
  });
});

describe('validation before any request', () => {
  it.each([
    [['library', '--lang', 'de']],
    [['library', '--limit', '0']],
    [['library', '--limit', '101']],
    [['library', '--page', 'x']],
    [['library', '--phase', 'FOO']],
    [['library', '--domain', 'FILMS']],
    [['library', '--sort', 'year']],
    [['history', '--from', '2026-02-30']],
    [['history', '--to', 'the day before']],
    [['library', 'show', '../me']],
    [['library', '--json', '--csv']],
  ])('lk %j exits 2 and the sandbox receives nothing', async (args) => {
    await expectRefusedBeforeAnyRequest(bed, args);
  });
});

describe('errors map to exit codes', () => {
  it('no key configured exits 3 with a line saying how to log in', async () => {
    const result = await bed.lk(['library'], { key: null });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('lk auth login');
  });

  it('a malformed key exits 3 before any request', async () => {
    bed.sandbox.resetCounters();
    const result = await bed.lk(['whoami'], { env: { LK_API_KEY: 'lk_short' } });
    expect(result.code).toBe(3);
    expect(bed.sandbox.counters.requests).toBe(0);
  });

  it('an expired key exits 3', async () => {
    expect((await bed.lk(['whoami'], { key: 'expired' })).code).toBe(3);
  });

  it('a key without library:read exits 4 naming the scope', async () => {
    const result = await bed.lk(['library'], { key: 'calendar' });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('library:read');
    expect(result.stderr).toContain('auth.api_key_forbidden');
    expect((await bed.lk(['whoami'], { key: 'calendar' })).code).toBe(0);
  });

  it('a disabled domain exits 4 naming it', async () => {
    const result = await bed.lk(['library', '--domain', 'GAMES'], { key: 'nogames' });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('GAMES');
    expect(result.stderr).toContain('user.domain_disabled');
  });
});
