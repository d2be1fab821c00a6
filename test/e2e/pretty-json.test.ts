import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sendJson, startFakeApi } from './fake-api.js';
import { startTestBed, tempHome, type TestBed } from './harness.js';
import { inTerminal } from './tmux.js';
import { tempDir } from '../support/temp-dir.js';
import { describeWith } from '../support/outside-tools.js';

/**
 * `--json`, `lk api` and `--jq` in a real terminal (tmux, as test/e2e/terminal.test.ts does): indented and coloured
 * for a person; in a pipe, the same bytes as ever.
 */

const SGR = /\u001b\[[0-9;]*m/g;

/** Every byte lk wrote to the terminal, 100 columns wide (carriage returns of the terminal's line discipline removed). */
async function written(args: string[], env: Record<string, string | undefined>, redirect = '') {
  const dir = tempDir('lk-pretty-');
  dirs.push(dir);
  const result = await inTerminal(args, env, { redirect, dir, columns: 100 });
  return { code: result.code, written: result.written.replace(/\r/g, ''), dir };
}

const plain = (text: string) => text.replace(SGR, '');

let bed: TestBed;
let firstId: string;
const dirs: string[] = [];

beforeAll(async () => {
  bed = await startTestBed({ entries: 40, rateLimit: 0 });
  firstId = (JSON.parse((await bed.lk(['library', '--limit', '1', '--json'])).stdout) as Array<{ id: string }>)[0]!.id;
});

afterAll(async () => {
  await bed.sandbox.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function terminal(args: string[], env: Record<string, string | undefined> = {}, redirect = '') {
  return written(args, { ...bed.env(), ...env }, redirect);
}

describeWith(['tmux'], 'JSON on a terminal is indented and coloured', () => {
  it('lk library --json: an indented, coloured array holding the same items as the pipe', async () => {
    const piped = await bed.lk(['library', '--limit', '3', '--json']);
    const shown = await terminal(['library', '--limit', '3', '--json'], {}, '2> err.txt');
    expect(shown.code).toBe(0);
    expect(shown.written).toMatch(SGR);
    expect(plain(shown.written)).toMatch(/^\[\n {2}\{\n {4}"id": "/);
    expect(JSON.parse(plain(shown.written))).toEqual(JSON.parse(piped.stdout));
  });

  it('keys, strings and null take different colours', async () => {
    const shown = await terminal(['library', 'show', firstId, '--json']);
    expect(shown.code).toBe(0);
    const key = /(\u001b\[[0-9;]*m)+"id"/.exec(shown.written)?.[0];
    const value = /(\u001b\[[0-9;]*m)+"[^"]*"(?=(\u001b\[[0-9;]*m)+,)/.exec(shown.written)?.[0];
    expect(key).toBeDefined();
    expect(value).toBeDefined();
    expect(key!.replace(/"[^"]*"/, '')).not.toBe(value!.replace(/"[^"]*"$/, ''));
    expect(shown.written).toMatch(/(\u001b\[[0-9;]*m)+null/);
    expect(JSON.parse(plain(shown.written))).toMatchObject({ id: firstId });
  });

  it('NO_COLOR keeps the indentation and drops the colour', async () => {
    const shown = await terminal(['library', '--limit', '2', '--json'], { NO_COLOR: '1' }, '2> err.txt');
    expect(shown.code).toBe(0);
    expect(shown.written).not.toMatch(SGR);
    expect(shown.written).toMatch(/^\[\n {2}\{\n {4}"id": "/);
  });

  it('a pipe from the terminal gets exactly the bytes of a pipe: one compact item a line, no colour', async () => {
    const piped = await bed.lk(['library', '--limit', '3', '--json']);
    const items = JSON.parse(piped.stdout) as unknown[];
    expect(piped.stdout).toBe(`[\n${items.map((item) => JSON.stringify(item)).join(',\n')}\n]\n`);
    const shown = await terminal(['library', '--limit', '3', '--json'], {}, '| cat > out.json');
    expect(shown.code).toBe(0);
    expect(readFileSync(join(shown.dir, 'out.json'), 'utf8')).toBe(piped.stdout);
  });

  it('lk api on a terminal: indented and coloured, numbers and strings spelled as the server sent them', async () => {
    const body = '{"big":12345678901234567890,"small":1.50,"c1":"a\u009b31mb","list":[],"nested":{"ok":true,"none":null}}';
    const api = await startFakeApi((_req, res) => sendJson(res, 200, body));
    try {
      const home = tempHome();
      const env = { LK_BASE_URL: api.url, LK_API_KEY: `lk_${'Q'.repeat(43)}abc123`, LK_CONFIG_DIR: home.configDir, LK_CACHE_DIR: home.cacheDir };
      const shown = await written(['api', '/v1/anything'], env);
      expect(shown.code).toBe(0);
      expect(shown.written).toMatch(SGR);
      const text = plain(shown.written);
      expect(text).toContain('\n  "big": 12345678901234567890,\n  "small": 1.50,\n');
      // A C1 control would reach the terminal: it is written as the JSON escape instead.
      expect(text).toContain('"c1": "a\\u009b31mb"');
      expect(text).toContain('"list": []');
      expect(text).toContain('  "nested": {\n    "ok": true,\n    "none": null\n  }\n}');
      const piped = await written(['api', '/v1/anything'], env, '| cat > out.json');
      expect(readFileSync(join(piped.dir, 'out.json'), 'utf8')).toBe(`${body}\n`);
    } finally {
      await api.close();
    }
  });

  it('--jq on a terminal: strings raw, other values compact and coloured, one a line', async () => {
    const shown = await terminal(['library', '--limit', '2', '--jq', '.[] | .id, {id}']);
    expect(shown.code).toBe(0);
    const lines = shown.written.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(4);
    expect(lines[0]).not.toMatch(SGR);
    expect(lines[1]).toMatch(SGR);
    expect(JSON.parse(plain(lines[1]!))).toEqual({ id: lines[0] });
  });
});
