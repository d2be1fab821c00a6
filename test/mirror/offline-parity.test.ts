import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportFigures } from '../../src/report/figures.js';
import { fallbackTimeZone } from '../../src/report/time-zone.js';
import { lkShellCommand, lkSpawnArgs, outputOf, startTestBed, type TestBed } from '../e2e/harness.js';
import { describeWith } from '../support/outside-tools.js';
import { tempDir } from '../support/temp-dir.js';
import { describeWithSqlite } from '../support/sqlite-node.js';

// Issue 33, the small rows: TZ empty or unknown, relative dates in report and convert, calendar --offline --format
// ics, convert's unmatched file when nothing matched, and the lk sandbox --help example that must wait for its file.

describe('the time zone of a report when TZ names none', () => {
  it('TZ empty or unknown: UTC, with one warning line; a known TZ as it is, without one', () => {
    for (const tz of ['', 'Mars/Olympus', ':']) {
      const warnings: string[] = [];
      expect(fallbackTimeZone({ TZ: tz }, (line) => warnings.push(line))).toBe('UTC');
      expect(warnings).toEqual([`lk: warning: TZ=${JSON.stringify(tz)} names no time zone lk knows: days are the profile's time zone, else UTC`]);
    }
    const warnings: string[] = [];
    expect(fallbackTimeZone({ TZ: 'Asia/Tokyo' }, (line) => warnings.push(line))).toBe('Asia/Tokyo');
    expect(fallbackTimeZone({ TZ: ':Europe/Paris' }, (line) => warnings.push(line))).toBe('Europe/Paris');
    expect(warnings).toEqual([]);
  });
});

describeWith(['bash', 'jq'], 'the example of lk sandbox --help', () => {
  it('run as written, waits for the sandbox to write its file before jq reads it', async () => {
    const dir = tempDir('lk-sandbox-example-');
    writeFileSync(join(dir, 'lk'), `#!/bin/sh\nexec ${lkShellCommand()} "$@"\n`);
    chmodSync(join(dir, 'lk'), 0o755);
    const help = await outputOf(
      spawn(...lkSpawnArgs(['sandbox', '--help']), { env: { PATH: process.env.PATH, HOME: dir }, stdio: ['pipe', 'pipe', 'pipe'] }),
    );
    const lines = help.stdout.split('\n').map((line) => line.trim());
    const example = lines.slice(lines.findIndex((line) => line.startsWith('lk sandbox --json')));
    const script = example.slice(0, example.findIndex((line) => line.endsWith('lk whoami')) + 1);
    expect(script.length).toBeGreaterThan(1);
    // The sandbox it starts in the background ends with the script, whatever the script's fate.
    const child = spawn('bash', ['-e', '-c', `trap 'kill $(jobs -p) 2>/dev/null; wait' EXIT\n${script.join('\n')}`], {
      cwd: dir,
      env: { PATH: `${dir}:${process.env.PATH}`, HOME: dir, LK_CONFIG_DIR: join(dir, 'config'), LK_CACHE_DIR: join(dir, 'cache'), TZ: 'UTC' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.end();
    const result = await outputOf(child, 60_000);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/demo/);
  });
});

describeWithSqlite('offline parity and the small ones, on a synced mirror', () => {
  let bed: TestBed;
  let dir: string;
  let mirror: string;
  const env = () => ({ LK_DATA_DIR: dir, LK_CACHE_DIR: join(dir, 'cache') });

  beforeAll(async () => {
    bed = await startTestBed({ rateLimit: 0, exportIntervalSeconds: 0 });
    dir = tempDir('lk-parity-');
    mirror = join(dir, 'mirror.db');
    const synced = await bed.lk(['sync', '--db', mirror], { env: env() });
    expect(synced.code, synced.stderr).toBe(0);
  });

  afterAll(async () => {
    await bed.sandbox.close();
  });

  for (const tz of ['', 'Mars/Olympus']) {
    it(`lk report with TZ=${JSON.stringify(tz)}: the profile's zone, one warning line, no crash`, async () => {
      const result = await bed.lk(['report', '--db', mirror, '--json', '--from', '2020-01-01'], { key: null, env: { ...env(), TZ: tz } });
      expect(result.code, result.stderr).toBe(0);
      expect((JSON.parse(result.stdout) as ReportFigures).timeZone).toBe('Europe/London');
      expect(result.stderr.split('\n').filter((line) => line.includes('warning'))).toEqual([
        `lk: warning: TZ=${JSON.stringify(tz)} names no time zone lk knows: days are the profile's time zone, else UTC`,
      ]);
    });
  }

  // Issue 58: the export's events carry workId where GET /v1/history gives the whole work; read offline, they are the
  // server's events all the same, field for field and in its order (README, lk help mirror).
  for (const format of ['--json', '--ndjson', '--csv', '--tsv']) {
    it(`lk history --offline ${format} after a sync from the export gives the bytes lk history gives`, async () => {
      const args = ['history', '--all', '--from', '2000-01-01', format];
      const online = await bed.lk(args);
      const offline = await bed.lk([...args, '--offline', '--db', mirror], { key: null, env: env() });
      expect(offline.code, offline.stderr).toBe(0);
      expect(online.stdout.split('\n').length).toBeGreaterThan(100);
      expect(offline.stdout).toBe(online.stdout);
    });
  }

  it('lk status --offline with TZ="": one warning line, no crash (as lk report and lk mcp)', async () => {
    const result = await bed.lk(['status', '--offline', '--db', mirror, '--json'], { key: null, env: { ...env(), TZ: '' } });
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as { schemaVersion: number }).schemaVersion).toBe(1);
    expect(result.stderr.split('\n').filter((line) => line.includes('warning'))).toEqual([
      `lk: warning: TZ="" names no time zone lk knows: days are the profile's time zone, else UTC`,
    ]);
  });

  it('lk report --from 30d --to yesterday: days counted back from today, as lk feed takes them', async () => {
    const result = await bed.lk(['report', '--db', mirror, '--json', '--from', '30d', '--to', 'yesterday'], { key: null, env: env() });
    expect(result.code, result.stderr).toBe(0);
    const { period } = JSON.parse(result.stdout) as ReportFigures;
    // --to defaults to today: the day the run counts back from.
    const today = await bed.lk(['report', '--db', mirror, '--json', '--from', '2020-01-01'], { key: null, env: env() });
    const day = (JSON.parse(today.stdout) as ReportFigures).period.to;
    const back = (days: number) => new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
    expect(period).toMatchObject({ from: back(30), to: back(1) });
  });

  it('lk convert --since 7d takes a relative date as lk feed does, and leaves out what came before', async () => {
    const all = await bed.lk(['convert', 'letterboxd', '--db', mirror], { key: null, env: env() });
    const recent = await bed.lk(['convert', 'letterboxd', '--db', mirror, '--since', '7d'], { key: null, env: env() });
    expect(all.code, all.stderr).toBe(0);
    expect([0, 1], recent.stderr).toContain(recent.code);
    expect(recent.stderr).not.toMatch(/invalid --since/);
    expect(recent.stderr).toMatch(/before --since/);
  });

  it('lk calendar --offline --format ics reads the mirror alone: no request, the episodes the server lists', async () => {
    const online = await bed.lk(['calendar', '--format', 'ics']);
    bed.sandbox.resetCounters();
    const offline = await bed.lk(['calendar', '--offline', '--format', 'ics', '--db', mirror], { key: null, env: env() });
    expect(offline.code, offline.stderr).toBe(0);
    expect(bed.sandbox.counters.requests).toBe(0);
    const uids = (ics: string) => ics.split('\r\n').filter((line) => line.startsWith('UID:'));
    expect(uids(offline.stdout).length).toBeGreaterThan(0);
    expect(uids(offline.stdout)).toEqual(uids(online.stdout));
  });

  it('lk convert -o writes FILE-unmatched.csv when nothing else could be written, and does not say to use -o', async () => {
    const out = join(tempDir('lk-unmatched-'), 'anime.xml');
    const result = await bed.lk(['convert', 'mal', '--db', mirror, '-o', out], { key: null, env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/nothing to write for mal/);
    const setAside = /(\d+) rows the importer would fail on or drop, written to (\S+):/.exec(result.stderr);
    expect(setAside, result.stderr).not.toBeNull();
    expect(setAside![2]).toBe(out.replace(/\.xml$/, '-unmatched.csv'));
    expect(readFileSync(setAside![2]!, 'utf8').trim().split('\n')).toHaveLength(Number(setAside![1]) + 1);
    expect(existsSync(out)).toBe(false);
    expect(result.stderr).not.toMatch(/with -o FILE/);
  });
});
