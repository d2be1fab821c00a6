import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusedBeforeAnyRequest, runLkInProcess, startTestBed, type RunResult, type TestBed } from './harness.js';
import { tempDir } from '../support/temp-dir.js';
import { until } from '../support/until.js';

// Issue 35: feed, report, calendar --format ics, export, convert and api return a document, which the wrapper puts
// where it goes (src/output/document.ts) once that is settled, before anything is asked of the server; lk sandbox
// and lk serve return a service, which the wrapper starts, announces and stops.

let bed: TestBed;
let dir: string;

beforeAll(async () => {
  bed = await startTestBed({ entries: 40, rateLimit: 0 });
  dir = tempDir('lk-documents-');
});

afterAll(async () => {
  await bed.sandbox.close();
});

describe('where a document goes is settled before any request', () => {
  it('--gzip on a terminal is refused in one line naming it, nothing sent; with -o FILE the same run writes gzip there', async () => {
    bed.sandbox.resetCounters();
    const refused = await bed.lk(['export', '--gzip'], { tty: { columns: 80, stderr: false } });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/^lk: --gzip would write binary to the terminal\n/);
    expect(bed.sandbox.counters.requests).toBe(0);

    const file = join(dir, 'export.json.gz');
    const written = await bed.lk(['export', '--gzip', '-o', file], { tty: { columns: 80, stderr: false } });
    expect(written.code).toBe(0);
    expect(written.stdout).toBe('');
    expect([...readFileSync(file).subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    expect(written.stderr).toMatch(new RegExp(`^lk: wrote ${file} \\(\\d+(\\.\\d+)? KiB\\)$`, 'm'));
  });

  it('--jq filters stdout only: with -o FILE or --output-dir it is refused, and nothing is written', async () => {
    const file = join(dir, 'filtered.json');
    await expectRefusedBeforeAnyRequest(bed, ['export', '-o', file, '--jq', '.']);
    await expectRefusedBeforeAnyRequest(bed, ['export', '--output-dir', join(dir, 'backups'), '--jq', '.']);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(join(dir, 'backups'))).toBe(false);
  });

  it.each([['feed', '--db', join('nowhere', 'mirror.db')], ['calendar', '--format', 'ics'], ['convert', 'yamtrack'], ['export']])(
    'lk %s with an empty -o is refused in the one wording every document command shares',
    async (...args) => {
      bed.sandbox.resetCounters();
      const result = await bed.lk([...args, '-o', '']);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe('lk: -o/--output needs a path\n');
      expect(bed.sandbox.counters.requests).toBe(0);
    },
  );
});

describe('a service: lk sandbox', () => {
  it('announces its address and keys first on stdout as one JSON line, serves until the run is stopped, then closes', async () => {
    const abort = new AbortController();
    let stdout = '';
    let ended: RunResult | undefined;
    const run = runLkInProcess(['sandbox', '--json'], { signal: abort.signal, onStdout: (text) => (stdout = text) }).then(
      (result) => (ended = result),
    );
    await until(() => stdout.endsWith('\n') || ended !== undefined);
    const { url, keys } = JSON.parse(stdout) as { url: string; keys: Array<{ key: string }> };
    const me = await fetch(`${url}/v1/me`, { headers: { authorization: `Bearer ${keys[0]!.key}` } });
    expect(me.status).toBe(200);
    // Still running once a request was answered: the run is the server's life.
    expect(ended).toBeUndefined();
    abort.abort();
    const result = await run;
    expect(result.code).toBe(0);
    await expect(fetch(`${url}/v1/me`)).rejects.toThrow();
  });
});
