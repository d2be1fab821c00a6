import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cellText, labelOf } from '../../src/output/formats/cell.js';
import { columnsOf } from '../../src/output/formats/fields.js';
import { Base64Value } from '../../src/util/base64-value.js';
import { lkSpawnArgs, outputOf, type TestBed } from '../e2e/harness.js';
import { syncedMirror } from '../support/synced-mirror.js';
import { until } from '../support/until.js';
import { call, mcpEnv, pipeTransport } from './mcp-support.js';
import { describeWithSqlite } from '../support/sqlite-node.js';

/**
 * BLOBs in lk sql and in mcp's sql tool (issue 45): written as base64 in every format — {"$base64": true, "encoded"}
 * in JSON, the base64 text in csv and tsv — which decodes back to the very bytes; one value capped (64 MiB in lk sql,
 * 256 KiB in mcp) with one line naming the column; a signal answered while big BLOBs stream.
 */

let bed: TestBed;
let dir: string;
let db: string;

beforeAll(async () => {
  ({ bed, dir, db } = await syncedMirror(5, 'lk-sql-blobs-'));
});
afterAll(async () => {
  await bed.sandbox.close();
});

/** Every byte value once, then a few that base64 pads: the bytes any encoding must bring back. */
const BYTES = Buffer.from([...Array.from({ length: 256 }, (_, i) => i), 0, 255, 10, 13, 44, 34]);
const BLOB_QUERY = `SELECT x'${BYTES.toString('hex')}' AS b, 7 AS n, x'' AS empty`;

const sql = (query: string, extra: string[] = []) => bed.lk(['sql', '-q', query, '--db', db, ...extra]);
const decoded = (base64: string) => Buffer.from(base64, 'base64');

/** A query that streams a 2 MB BLOB a row, for ever. */
const ENDLESS_BLOBS = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x, zeroblob(2000000) AS b FROM c';

describe('a BLOB as the output formats take it (Base64Value), on every Node', () => {
  const value = Base64Value.of(BYTES);
  it('JSON: {"$base64": true, "encoded"}; csv, tsv and table cells: the base64 text; one column, not one per byte', () => {
    expect(JSON.parse(JSON.stringify({ b: value }))).toEqual({ b: { $base64: true, encoded: BYTES.toString('base64') } });
    expect(decoded(cellText(value)).equals(BYTES)).toBe(true);
    expect(labelOf(value)).toBe(cellText(value));
    expect(columnsOf([{ b: value, n: 1 }])).toEqual(['b', 'n']);
  });
});

describeWithSqlite('BLOBs read from the mirror', () => {
  describe('lk sql writes a BLOB as base64 that decodes back to its bytes', () => {
    it('--json: {"$base64": true, "encoded": …} (sqlite-utils, Datasette)', async () => {
      const result = await sql(BLOB_QUERY, ['--json']);
      expect(result.code, result.stderr).toBe(0);
      const [row] = JSON.parse(result.stdout) as { b: { $base64: boolean; encoded: string }; n: number; empty: unknown }[];
      expect(row!.b.$base64).toBe(true);
      expect(Object.keys(row!.b)).toEqual(['$base64', 'encoded']);
      expect(decoded(row!.b.encoded).equals(BYTES)).toBe(true);
      expect(row!.n).toBe(7);
      expect(row!.empty).toEqual({ $base64: true, encoded: '' });
    });

    it('--ndjson: the same object on the row’s line', async () => {
      const result = await sql(BLOB_QUERY, ['--ndjson']);
      expect(result.code, result.stderr).toBe(0);
      const row = JSON.parse(result.stdout.trim()) as { b: { $base64: true; encoded: string } };
      expect(decoded(row.b.encoded).equals(BYTES)).toBe(true);
    });

    it('--csv and --tsv: one column holding the base64 text', async () => {
      for (const format of ['--csv', '--tsv']) {
        const result = await sql(BLOB_QUERY, [format]);
        expect(result.code, result.stderr).toBe(0);
        const [header, line] = result.stdout.replace(/\n$/, '').split('\n');
        const separator = format === '--csv' ? ',' : '\t';
        expect(header).toBe(['b', 'n', 'empty'].join(separator));
        const [b, n, empty] = line!.split(separator);
        expect(decoded(b!).equals(BYTES)).toBe(true);
        expect([n, empty]).toEqual(['7', '']);
      }
    });

    it('a 20 MB BLOB in --csv is written whole, not "Set maximum size exceeded"', async () => {
      const result = await sql('SELECT zeroblob(20000000) AS b', ['--csv']);
      expect(result.code, result.stderr).toBe(0);
      const bytes = decoded(result.stdout.split('\n')[1]!);
      expect(bytes.length).toBe(20_000_000);
      expect(bytes.every((byte) => byte === 0)).toBe(true);
    });

    it('a value over 64 MiB is refused with one line naming the cap, exit 2', async () => {
      const result = await sql('SELECT 1 AS n, zeroblob(100000000) AS big');
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^lk: the query failed: .*longer than 64 MiB, the most one value may take here; select a part of it/m);
      expect(result.stdout).toBe('');
    });
  });

  describe('a signal during a query streaming big BLOBs', () => {
    it.each([
      ['SIGTERM', 143],
      ['SIGINT', 130],
    ] as const)('%s ends lk sql --csv with exit %i while rows are being written', async (signal, code) => {
      const child = spawn(...lkSpawnArgs(['sql', '-q', ENDLESS_BLOBS, '--db', db, '--csv', '--timeout', '600']), {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...bed.env(null), LK_CACHE_DIR: join(dir, 'cache') },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let written = 0;
      child.stdout.on('data', (chunk: Buffer) => (written += chunk.length));
      const done = outputOf(child, 20_000);
      // Two BLOBs out: lk is encoding and writing them as they come.
      await until(() => written > 2 * 2_666_668);
      child.kill(signal);
      const result = await done;
      expect(result.code).toBe(code);
    });
  });

  describe('mcp sql tool', () => {
    /** `lk mcp` as a real process with the SDK's client over its pipes. */
    async function served() {
      const child = spawn(...lkSpawnArgs(['mcp', '--db', db, '--timeout', '600']), { env: mcpEnv(bed), stdio: ['pipe', 'pipe', 'pipe'] });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
      const client = new Client({ name: 'lk-test', version: '1.0.0' });
      await client.connect(pipeTransport(child.stdout, child.stdin));
      return { child, client, exited };
    }

    it('answers a BLOB as {"$base64": true, "encoded": …} that decodes back to its bytes, in structuredContent and text', async () => {
      const { child, client, exited } = await served();
      const answer = await call(client, 'sql', { query: BLOB_QUERY });
      expect(answer.isError).toBeUndefined();
      const [row] = (answer.structuredContent as { rows: { b: { $base64: true; encoded: string } }[] }).rows;
      expect(row!.b.$base64).toBe(true);
      expect(decoded(row!.b.encoded).equals(BYTES)).toBe(true);
      const fromText = JSON.parse(answer.content[0]!.text) as { rows: { b: { encoded: string } }[] };
      expect(decoded(fromText.rows[0]!.b.encoded).equals(BYTES)).toBe(true);
      child.stdin.end();
      expect(await exited).toBe(0);
    });

    it('a 100 MB BLOB is a tool error naming the 256 KiB cap, and lk mcp never holds it (peak memory under 300 MB)', async () => {
      const { child, client, exited } = await served();
      const answer = await call(client, 'sql', { query: 'SELECT zeroblob(100000000) AS b' });
      expect(answer.isError).toBe(true);
      expect(answer.content[0]!.text).toMatch(/longer than 256 KiB, the most one value may take here; select a part of it \(substr\(x, 1, n\)\)/);
      // The high-water mark of lk mcp's resident memory (Linux): the BLOB as JSON alone would be hundreds of MB.
      const peak = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]);
      expect(peak).toBeLessThan(300 * 1024);
      // It goes on serving.
      const next = await call(client, 'sql', { query: 'SELECT count(*) AS n FROM entries' });
      expect(next.structuredContent).toMatchObject({ rows: [{ n: 5 }] });
      child.stdin.end();
      expect(await exited).toBe(0);
    });

    it('rows of 100 KB BLOBs come a few per page within 256 KiB, and the cursors reach every row', async () => {
      const { child, client, exited } = await served();
      const query = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 7) SELECT x, randomblob(100000) AS b FROM c';
      const seen: number[] = [];
      let args: Record<string, unknown> = { query, max_rows: 100 };
      for (;;) {
        const answer = await call(client, 'sql', args);
        expect(answer.isError, answer.content[0]?.text).toBeUndefined();
        const page = answer.structuredContent as { rows: { x: number; b: { encoded: string } }[]; truncated: boolean; nextCursor?: string };
        expect(page.rows.length).toBeGreaterThan(0);
        expect(answer.content[0]!.text.length).toBeLessThanOrEqual(300 * 1024);
        for (const row of page.rows) {
          expect(decoded(row.b.encoded).length).toBe(100_000);
          seen.push(row.x);
        }
        if (!page.truncated) break;
        args = { cursor: page.nextCursor };
      }
      expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
      child.stdin.end();
      expect(await exited).toBe(0);
    });
  });
});
