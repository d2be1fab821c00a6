import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusedBeforeAnyRequest, startTestBed, type TestBed } from './harness.js';
import { tempDir } from '../support/temp-dir.js';

/** Errors and contracts a newcomer met (issue 13, items 8, 9, 10, 12, 14). */

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed({ rateLimit: 0 });
});
afterAll(() => bed.sandbox.close());

describe('mistyped subcommands (item 8)', () => {
  it.each([
    [['config', 'sett', 'format', 'json'], "lk: unknown command 'sett' for 'lk config' (Did you mean set?)\n"],
    [['library', 'shwo', 'X'], "lk: unknown command 'shwo' for 'lk library' (Did you mean show?)\n"],
    [['profile', 'achievments'], "lk: unknown command 'achievments' for 'lk profile' (Did you mean achievements?)\n"],
    [['lists', 'shwo', '7'], "lk: unknown command 'shwo' for 'lk lists' (Did you mean show?)\n"],
  ])('lk %j suggests the subcommand and exits 2', async (args, message) => {
    await expectRefusedBeforeAnyRequest(bed, args);
    expect((await bed.lk(args)).stderr).toBe(message);
  });

  it('lk lists show ID --limit 3 says the option is unknown, without suggesting the same option', async () => {
    const result = await bed.lk(['lists', 'show', '7', '--limit', '3']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("lk: unknown option '--limit'\n");
  });

  it('a typo of a real option of the subcommand is still corrected', async () => {
    const result = await bed.lk(['library', 'history', 'e1', '--limt', '3']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Did you mean --limit\?/);
  });
});

describe('lk config and profiles (items 9 and 10)', () => {
  const configEnv = () => ({ LK_CONFIG_DIR: join(tempDir('lk-cfg-'), 'config') });

  it.each([
    [['--profile', 'work', 'config', 'set', 'format', 'json']],
    [['--profile', 'work', 'config', 'unset', 'format']],
    [['--profile', 'work', 'config', 'get', 'format']],
  ])('lk %j is refused (exit 2): settings are not per profile', async (args) => {
    const env = configEnv();
    const result = await bed.lk(args, { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^lk: lk config \w+ changes the defaults of every profile: --profile does not apply\n/);
    expect((await bed.lk(['config', 'get', 'format'], { env })).stdout).toBe('');
  });

  it('lk config set base-url http://x.org is refused (exit 2), as every request would be', async () => {
    const env = configEnv();
    const result = await bed.lk(['config', 'set', 'base-url', 'http://x.org'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^lk: refusing to send the key over plain http to x\.org\n/);
    expect((await bed.lk(['config', 'get', 'base-url'], { env })).stdout).toBe('');
  });

  it('plain http on loopback and https anywhere are accepted', async () => {
    const env = configEnv();
    expect((await bed.lk(['config', 'set', 'base-url', 'http://127.0.0.1:8080'], { env })).code).toBe(0);
    expect((await bed.lk(['config', 'set', 'base-url', 'https://x.org'], { env })).code).toBe(0);
  });
});

describe('--all and --page (item 12)', () => {
  it.each([[['library', '--all', '--page', '2', '--json']], [['history', '--all', '--page', '2']], [['notifications', '--page', '3', '--all']]])(
    'lk %j is refused before any request',
    async (args) => {
      await expectRefusedBeforeAnyRequest(bed, args);
      expect((await bed.lk(args)).stderr).toMatch(/^lk: --all reads every page from the first: it does not combine with --page\n/);
    },
  );
});

describe('one style for moments (item 7)', () => {
  it('a rate-limit refusal names the reset as 24-hour local time and how far off it is', async () => {
    const limited = await startTestBed({ rateLimit: 1 });
    try {
      await limited.lk(['whoami']);
      const result = await limited.lk(['library', '--no-wait']);
      expect(result.code).toBe(5);
      // A window that resets in exactly a minute reads "(in 1m)", one a moment later "(in 59s)".
      expect(result.stderr).toMatch(/ (\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d \(in (\d+s|1m)\)/);
      expect(result.stderr).not.toMatch(/[AP]M/);
    } finally {
      await limited.sandbox.close();
    }
  });

  it('the export hour is named the same way', async () => {
    const home = tempDir('lk-exp-');
    const env = { LK_CACHE_DIR: join(home, 'cache') };
    expect((await bed.lk(['export', '-o', join(home, 'a.json')], { env })).code).toBe(0);
    const result = await bed.lk(['export', '--fresh', '-o', join(home, 'b.json')], { env });
    expect(result.code).toBe(5);
    // (in 1h), or (in 59m 59s) when a second passed between the two runs.
    expect(result.stderr).toMatch(/(\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d \(in \d+[hms]( \d+[hms])?\)/);
  });
});

describe('clear errors (item 14)', () => {
  it('lk sandbox --port BUSY says the port is in use, in one line (exit 1)', async () => {
    const port = new URL(bed.sandbox.url).port;
    const result = await bed.lk(['sandbox', '--port', port]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `lk: cannot start the sandbox: 127.0.0.1:${port} is already in use\nChoose another --port, or leave it out for a free one.\n`,
    );
  });

  it('a missing LK_API_KEY_FILE names the variable and the path (exit 3)', async () => {
    const file = join(tempDir('lk-key-'), 'missing-key');
    const result = await bed.lk(['library'], { key: null, env: { LK_API_KEY_FILE: file } });
    expect(result.code).toBe(3);
    expect(result.stderr.split('\n')[0]).toBe(`lk: cannot read the key file that LK_API_KEY_FILE names, ${file}: no such file`);
  });

  it('lk help nothing is a usage error on stderr (exit 2)', async () => {
    const result = await bed.lk(['help', 'nothing']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe("lk: no command 'nothing' to show help for\n");
  });

  it('lk help librray suggests the command', async () => {
    const result = await bed.lk(['help', 'librray']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("lk: no command 'librray' to show help for (Did you mean library?)\n");
  });

  it('lk help library still shows that help (exit 0)', async () => {
    const result = await bed.lk(['help', 'library']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: lk library/);
  });
});
