import { describe, expect, it } from 'vitest';
import { summaryLines } from '../support/skip-summary.js';
import { SKIP_MARKER } from '../support/outside-tools.js';
import { SQLITE_SKIP_MARKER } from '../support/sqlite-node.js';

/** The last lines of npm test: the tests skipped for want of node:sqlite, counted apart from those of an outside tool. */
describe('the skip summary', () => {
  const sqlite = (name: string) => `lk serve on a synced mirror [${SQLITE_SKIP_MARKER}] ${name}`;
  const tool = (tools: string, name: string) => `a FIFO as --db [${SKIP_MARKER} ${tools}] ${name}`;

  it('counts the node:sqlite skips on a line of their own, naming this Node and the one they need', () => {
    expect(summaryLines([sqlite('a'), sqlite('b'), tool('mkfifo', 'c'), tool('mkfifo, jq', 'd')], 'v20.20.2')).toEqual([
      'Skipped 2 tests that need node:sqlite (Node 22.13+; this is Node v20.20.2): run them on Node 22.13 or newer',
      'Skipped tests that need outside tools: jq (1), mkfifo (2). To run them: apt-get install jq coreutils',
    ]);
  });

  it('names each package once in the apt-get line, though two tools need it (man and groff: groff-base)', () => {
    expect(summaryLines([tool('man', 'a'), tool('groff', 'b')], 'v24.1.0')).toEqual([
      'Skipped tests that need outside tools: groff (1), man (1). To run them: apt-get install groff-base man-db',
    ]);
  });

  it('counts a test skipped for both reasons once, for node:sqlite; says nothing when nothing was skipped', () => {
    expect(summaryLines([`the mirror [${SQLITE_SKIP_MARKER}] ${tool('mount', 'e')}`], 'v20.20.2')).toEqual([
      'Skipped 1 test that needs node:sqlite (Node 22.13+; this is Node v20.20.2): run them on Node 22.13 or newer',
    ]);
    expect(summaryLines([], 'v24.1.0')).toEqual([]);
    expect(summaryLines(['skipped for another reason'], 'v24.1.0')).toEqual([]);
  });
});
