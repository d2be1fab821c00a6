import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusedBeforeAnyRequest, ndjsonLines, startTestBed, type TestBed } from './harness.js';
import { whatRunLoads } from './loaded.js';

let bed: TestBed;

beforeAll(async () => {
  bed = await startTestBed({ entries: 130, rateLimit: 0 });
});

afterAll(async () => {
  await bed.sandbox.close();
});

const lines = (text: string) => text.split('\n').filter((line) => line !== '');

describe('--jq filters the JSON a command prints', () => {
  it("lk library --all --json --jq '.[].id' prints every id raw, one a line, in the listing's order", async () => {
    const all = await bed.lk(['library', '--all', '--json']);
    const ids = (JSON.parse(all.stdout) as Array<{ id: string }>).map((entry) => entry.id);
    expect(ids.length).toBe(130);
    const run = await bed.lk(['library', '--all', '--json', '--jq', '.[].id']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(`${ids.join('\n')}\n`);
  });

  it('with --all the filter sees the one array, not one per page', async () => {
    const run = await bed.lk(['library', '--all', '--jq', 'length']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('130\n');
  });

  it('--jq implies --json: objects print as compact JSON, one a line', async () => {
    const run = await bed.lk(['library', '--limit', '3', '--jq', '.[] | {id, status}']);
    expect(run.code).toBe(0);
    const printed = lines(run.stdout);
    expect(printed).toHaveLength(3);
    for (const line of printed) expect(Object.keys(JSON.parse(line) as object)).toEqual(['id', 'status']);
    expect(printed[0]).not.toContain(' ');
  });

  it('with --ndjson the filter runs on each item, as jq does on a stream', async () => {
    const items = ndjsonLines((await bed.lk(['library', '--limit', '4', '--ndjson'])).stdout) as Array<{ id: string }>;
    const run = await bed.lk(['library', '--limit', '4', '--ndjson', '--jq', '.id']);
    expect(run.code).toBe(0);
    expect(lines(run.stdout)).toEqual(items.map((item) => item.id));
  });

  it('lk api /v1/me --jq .account.username prints the string raw', async () => {
    const run = await bed.lk(['api', '/v1/me', '--jq', '.account.username']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('demo\n');
  });

  it('lk api --paginate --jq sees the one array of every item', async () => {
    const run = await bed.lk(['api', '/v1/library', '--paginate', '--jq', 'map(.id) | length']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('130\n');
  });

  it('a single resource is filtered as the object itself', async () => {
    const first = (JSON.parse((await bed.lk(['library', '--limit', '1', '--json'])).stdout) as Array<{ id: string }>)[0]!;
    const run = await bed.lk(['library', 'show', first.id, '--jq', '.id']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${first.id}\n`);
  });

  it('a syntax error in the expression exits 2 before any request, quoting jq', async () => {
    await expectRefusedBeforeAnyRequest(bed, ['library', '--all', '--json', '--jq', '.[]) | .id']);
    const run = await bed.lk(['api', '/v1/me', '--jq', '.account | {']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^lk: invalid --jq expression: syntax error/);
  });

  it('--jq with a format that is not JSON is refused before any request', async () => {
    await expectRefusedBeforeAnyRequest(bed, ['library', '--csv', '--jq', '.[].id']);
  });

  it("commands that do not print through lk's output refuse --jq rather than ignore it", async () => {
    for (const args of [
      ['config', 'list', '--json'],
      ['completion', 'bash'],
    ]) {
      const run = await bed.lk([...args, '--jq', '.']);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^lk: --jq does not apply to lk (config|completion)\n/);
    }
  });

  it('a run-time error exits 1 with one lk: line', async () => {
    const run = await bed.lk(['library', '--limit', '2', '--jq', '.[] | .id | tonumber']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^lk: --jq: .*cannot be parsed as a number/);
    expect(lines(run.stderr)).toHaveLength(1);
  });
});

describe('jq is loaded only when --jq is given', () => {
  it('lk library --json does not load jq-wasm; with --jq it does', async () => {
    const plain = await whatRunLoads(bed, ['library', '--json']);
    expect(plain.run.code).toBe(0);
    expect(plain.packages).not.toContain('jq-wasm');
    const filtered = await whatRunLoads(bed, ['library', '--json', '--jq', '.[0].id']);
    expect(filtered.run.code).toBe(0);
    expect(filtered.packages).toContain('jq-wasm');
  });
});
