import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusedBeforeAnyRequest, startTestBed, type TestBed } from './harness.js';

let bed: TestBed;

beforeAll(async () => {
  bed = await startTestBed({ entries: 60 });
});

afterAll(async () => {
  await bed.sandbox.close();
});

describe('--fields help lists the field paths the items carry', () => {
  it('lk library --fields help: one path a line on stdout, leaves and the objects that hold them, from one request', async () => {
    bed.sandbox.resetCounters();
    const result = await bed.lk(['library', '--fields', 'help']);
    expect(result.code, result.stderr).toBe(0);
    const paths = result.stdout.trimEnd().split('\n');
    expect(paths).toEqual(expect.arrayContaining(['id', 'work', 'work.title', 'work.url', 'status', 'phase', 'dates.added', 'url']));
    expect(paths).toEqual([...paths].sort((a, b) => a.localeCompare(b, 'en')));
    expect(bed.sandbox.counters.requests).toBe(1);
  });

  it('works on single resources and sections too (lk library show, lk stats)', async () => {
    const id = (JSON.parse((await bed.lk(['library', '--max', '1', '--json'])).stdout) as Array<{ id: string }>)[0]!.id;
    expect((await bed.lk(['library', 'show', id, '--fields', 'help'])).stdout.split('\n')).toContain('work.title');
    const stats = await bed.lk(['stats', '--fields', 'help']);
    expect(stats.code).toBe(0);
    expect(stats.stdout.trim().split('\n').length).toBeGreaterThan(1);
  });

  it('every path it lists works with --fields', async () => {
    const paths = (await bed.lk(['library', '--fields', 'help'])).stdout.trim().split('\n');
    // The same first page: each path is carried by some item of it, or known to the view.
    const result = await bed.lk(['library', '--fields', paths.filter((path) => path.includes('.')).join(','), '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });
});

describe('a --fields path that matches nothing', () => {
  it('--fields title (meant work.title) warns on stderr with the closest path, and still prints', async () => {
    const result = await bed.lk(['library', '--max', '3', '--fields', 'id,title']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^lk: warning: --fields title matches nothing in the first page; did you mean work\.title\?/m);
    expect(result.stdout.trim().split('\n')).toHaveLength(3);
  });

  it('a typo gets the nearest spelling: work.titel → work.title, satus → status', async () => {
    const result = await bed.lk(['library', '--max', '3', '--fields', 'work.titel,satus', '--csv']);
    expect(result.stderr).toMatch(/--fields work\.titel matches nothing .*did you mean work\.title\?/);
    expect(result.stderr).toMatch(/--fields satus matches nothing .*did you mean status\?/);
  });

  it('nothing close: points to --fields help; a path that matches gives no warning', async () => {
    expect((await bed.lk(['library', '--max', '3', '--fields', 'zzzzzzzz'])).stderr).toMatch(/see --fields help/);
    expect((await bed.lk(['library', '--max', '3', '--fields', 'id,work.title'])).stderr).toBe('');
  });

  it('on a single resource too', async () => {
    const id = (JSON.parse((await bed.lk(['library', '--max', '1', '--json'])).stdout) as Array<{ id: string }>)[0]!.id;
    const result = await bed.lk(['library', 'show', id, '--fields', 'title']);
    expect(result.stderr).toMatch(/--fields title matches nothing in the response; did you mean work\.title\?/);
  });
});

describe('lk export --fields', () => {
  it('is refused (exit 2) before any request: the export is written whole', async () => {
    await expectRefusedBeforeAnyRequest(bed, ['export', '--fields', 'library']);
    const result = await bed.lk(['export', '--fields', 'library']);
    expect(result.stderr).toMatch(/jq/);
  });
});
