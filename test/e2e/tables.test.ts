import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/output/terminal/width.js';
import { listingCommands, startTestBed, type TestBed } from './harness.js';
import { ALL_SCOPES } from '../../src/sandbox/auth.js';

/**
 * Tables and views on data they were not written for (issue 13, items 4–7): every listing, against the sandbox and
 * against its alt variant (UUID ids, an owner object, notifications with title/body/readAt, other names for every
 * field SPEC.md leaves open), at the widths people use.
 */

const SGR = /\u001b\[[0-9;]*m/g;
const plain = (text: string) => text.replace(SGR, '');
const WIDTHS = [40, 50, 80, 120];

describe.each(['default', 'alt'] as const)('the %s sandbox', (variant) => {
  let bed: TestBed;
  let commands: string[][];
  beforeAll(async () => {
    bed = await startTestBed({ rateLimit: 0, variant });
    commands = await listingCommands(bed);
  });
  afterAll(() => bed.sandbox.close());

  it.each(WIDTHS)('at %i columns every row of every listing, and its footer, stays on one line', async (columns) => {
    for (const args of commands) {
      const result = await bed.lk(args, { tty: { columns } });
      expect(result.code, args.join(' ')).toBe(0);
      const lines = plain(result.stdout + result.stderr).split('\n');
      const tooWide = lines.filter((line) => displayWidth(line) > columns);
      expect(tooWide, `lk ${args.join(' ')} at ${columns} columns`).toEqual([]);
    }
  });

  it('from 80 columns up, the title keeps at least 20 cells', async () => {
    for (const columns of [80, 120]) {
      for (const args of [['library'], ['history'], ['reviews'], ['lists']]) {
        const header = plain((await bed.lk(args, { tty: { columns } })).stdout).split('\n')[0]!;
        const match = /^(TITLE|NAME) +/.exec(header) ?? /(TITLE) +/.exec(header);
        expect(match, `${args.join(' ')}: ${header}`).not.toBeNull();
        // The header cell, its padding included: the column's width plus the two blanks between columns.
        expect(match![0].length, `${args.join(' ')} at ${columns}: ${header}`).toBeGreaterThanOrEqual(22);
      }
    }
  });

  it('no table cell and no piped cell shows raw JSON of an object', async () => {
    for (const args of commands) {
      for (const options of [{ tty: { columns: 120 } }, {}]) {
        const result = await bed.lk(args, options);
        expect(plain(result.stdout), args.join(' ')).not.toMatch(/\{"|\[\{/);
      }
    }
  });

  it('ids stay whole in a pipe and in --json, whatever the table shows', async () => {
    const ids = bed.sandbox.entryIds('demo').slice(0, 20);
    const piped = (await bed.lk(['library'])).stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t').at(-1));
    expect(piped).toEqual(ids);
    const json = JSON.parse((await bed.lk(['library', '--json'])).stdout) as Array<{ id: string }>;
    expect(json.map((entry) => entry.id)).toEqual(ids);
    const shown = await bed.lk(['library', 'show', ids[0]!, '--json']);
    expect(JSON.parse(shown.stdout).id).toBe(ids[0]);
  });

  it('a numeric last column does not stretch the table to the width of the terminal', async () => {
    const widest = async (columns: number) => {
      const result = await bed.lk(['library', '--fields', 'work.title,rating'], { tty: { columns } });
      return Math.max(
        ...plain(result.stdout)
          .split('\n')
          .map((line) => displayWidth(line)),
      );
    };
    expect(await widest(240)).toBe(await widest(200));
  });

  it('a status shows its phase on every row or on none (UP_TO_DATE as READ)', async () => {
    const STATUS = /\b(COMPLETED|UP_TO_DATE|READ|LISTENED|WATCHING|PLAYING|READING|BACKLOG|TO_READ|TO_LISTEN)\b( · [A-Z_]+)?/;
    for (const columns of [80, 100, 120, 200]) {
      const rows = plain((await bed.lk(['library', '--all'], { tty: { columns, stderr: false } })).stdout)
        .split('\n')
        .slice(1, -1);
      const statuses = rows.map((row) => STATUS.exec(row)).filter((match) => match !== null);
      const withPhase = statuses.filter((match) => match[2] !== undefined);
      expect([0, statuses.length], `${columns} columns`).toContain(withPhase.length);
    }
    const wide = plain((await bed.lk(['library', '--all'], { tty: { columns: 200, stderr: false } })).stdout);
    expect(wide).toMatch(/UP_TO_DATE · DONE/);
    expect(wide).toMatch(/READ · DONE/);
  });

  it('notifications: the title once, the message beside it, and whether each was read', async () => {
    const result = await bed.lk(['notifications', '--all'], { tty: { columns: 200, stderr: false } });
    const rows = plain(result.stdout).split('\n').slice(1, -1);
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.filter((row) => / read$/.test(row.trimEnd())).length).toBeGreaterThan(0);
    expect(rows.filter((row) => / unread$/.test(row.trimEnd())).length).toBeGreaterThan(0);
    const piped = (await bed.lk(['notifications', '--all'])).stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t').at(-1));
    expect(new Set(piped)).toEqual(new Set(['true', 'false']));
    for (const row of rows) expect(row).not.toMatch(/(\S.{10,})\s{2,}\1/);
  });

  it('progress reads one way: "1,230 min", never "1230 minutes"', async () => {
    const result = plain((await bed.lk(['library', '--all', '--domain', 'GAMES'], { tty: { columns: 200, stderr: false } })).stdout);
    expect(result).toMatch(/\d min\b/);
    expect(result).not.toMatch(/minutes/);
  });

  it('lists show the owner by name', async () => {
    const result = plain((await bed.lk(['lists'], { tty: { columns: 200 } })).stdout);
    expect(result).toMatch(/\bcamille\b/);
  });

  it('whoami: the account, the key with every scope in full, its expiry and the rate limit with units', async () => {
    for (const columns of [50, 80]) {
      const result = await bed.lk(['whoami'], { tty: { columns } });
      expect(result.code).toBe(0);
      // Continuation lines (a long value wrapped after a comma) joined back.
      const screen = plain(result.stdout).replace(/\n {12}/g, ' ');
      expect(screen).toMatch(/^Account +demo \(Demo User\)$/m);
      expect(screen).toMatch(/^Expires +never$/m);
      // A window that resets in exactly a minute reads (in 1m): the sandbox's clock is the wall clock.
      expect(screen).toMatch(/^Rate limit +[\d,]+ of [\d,]+ requests left this minute, resets in (\d+s|1m)$/m);
      for (const scope of ALL_SCOPES) {
        expect(screen).toContain(scope);
      }
      expect(screen.replace(/lk_\w+…/, '')).not.toContain('…');
      expect(
        plain(result.stdout)
          .split('\n')
          .filter((line) => displayWidth(line) > columns),
      ).toEqual([]);
    }
  });

  it('show keeps URLs whole, even on a narrow terminal', async () => {
    const id = bed.sandbox.entryIds('demo')[0]!;
    const json = JSON.parse((await bed.lk(['library', 'show', id, '--json'])).stdout) as { url: string };
    const screen = plain((await bed.lk(['library', 'show', id], { tty: { columns: 50 } })).stdout);
    expect(screen).toContain(json.url);
  });
});
