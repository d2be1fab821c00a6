import { PassThrough } from 'node:stream';
import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { IoStreams, paintErrorLines, type IoOptions } from '../../src/output/terminal/io.js';
import { paintPhase, phaseOf } from '../../src/output/formats/style.js';

const terminal = () => Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
const pipe = () => new PassThrough();

/** Whether the output of a run with these streams and settings is coloured. */
function coloured(options: IoOptions): boolean {
  return new IoStreams({ stdout: terminal(), stderr: terminal(), ...options }).colorEnabled;
}

describe('when output is coloured', () => {
  it('auto: on a terminal, never in a pipe', () => {
    expect(coloured({ env: {} })).toBe(true);
    expect(coloured({ env: {}, stdout: pipe() })).toBe(false);
  });

  it('--no-color turns it off, even with FORCE_COLOR or color=always', () => {
    expect(coloured({ env: {}, noColorFlag: true })).toBe(false);
    expect(coloured({ env: { FORCE_COLOR: '1' }, noColorFlag: true, color: 'always' })).toBe(false);
  });

  it('NO_COLOR (any value but empty) turns it off, even with FORCE_COLOR or color=always', () => {
    expect(coloured({ env: { NO_COLOR: '1' } })).toBe(false);
    expect(coloured({ env: { NO_COLOR: '1', FORCE_COLOR: '1' }, color: 'always' })).toBe(false);
    expect(coloured({ env: { NO_COLOR: '' } })).toBe(true);
  });

  it('FORCE_COLOR turns it on in a pipe, FORCE_COLOR=0 off on a terminal; both over the config', () => {
    expect(coloured({ env: { FORCE_COLOR: '1' }, stdout: pipe(), color: 'never' })).toBe(true);
    expect(coloured({ env: { FORCE_COLOR: '0' }, color: 'always' })).toBe(false);
  });

  it('config color: always colours a pipe, never leaves a terminal plain', () => {
    expect(coloured({ env: {}, stdout: pipe(), color: 'always' })).toBe(true);
    expect(coloured({ env: {}, color: 'never' })).toBe(false);
    expect(coloured({ env: {}, color: 'auto' })).toBe(true);
  });

  it('stderr is decided on its own: a terminal stderr takes colour while stdout is a pipe', () => {
    const io = new IoStreams({ stdout: pipe(), stderr: terminal(), env: {} });
    expect(io.colorEnabled).toBe(false);
    expect(io.stderrColorEnabled).toBe(true);
  });
});

describe('spinners and countdowns', () => {
  it('only when stderr is a terminal that can redraw a line, and not -q', () => {
    expect(new IoStreams({ stderr: terminal(), env: {} }).mayShowProgress).toBe(true);
    expect(new IoStreams({ stderr: pipe(), env: {} }).mayShowProgress).toBe(false);
    expect(new IoStreams({ stderr: terminal(), env: {}, quiet: true }).mayShowProgress).toBe(false);
    expect(new IoStreams({ stderr: terminal(), env: { TERM: 'dumb' } }).mayShowProgress).toBe(false);
  });
});

describe('error lines', () => {
  const noConfig = (): NodeJS.ProcessEnv => ({});
  const argv = (...flags: string[]) => ['node', 'lk', 'library', ...flags];
  const message = 'lk: not logged in\nRun `lk auth login`.\n';

  it('are red on a terminal, the hint line left plain', () => {
    expect(paintErrorLines(message, terminal(), noConfig(), argv())).toBe(
      `${pc.createColors(true).red('lk: not logged in')}\nRun \`lk auth login\`.\n`,
    );
  });

  it('are plain in a pipe, unless FORCE_COLOR', () => {
    expect(paintErrorLines(message, pipe(), noConfig(), argv())).toBe(message);
    expect(paintErrorLines(message, pipe(), { ...noConfig(), FORCE_COLOR: '1' }, argv())).not.toBe(message);
  });

  it('are plain with --no-color (before any --), NO_COLOR, or config color never', () => {
    expect(paintErrorLines(message, terminal(), noConfig(), argv('--no-color'))).toBe(message);
    expect(paintErrorLines(message, terminal(), noConfig(), argv('--', '--no-color'))).not.toBe(message);
    expect(paintErrorLines(message, terminal(), { ...noConfig(), NO_COLOR: '1' }, argv())).toBe(message);
    expect(paintErrorLines(message, terminal(), noConfig(), argv(), () => 'never')).toBe(message);
  });
});

describe('phases and statuses share colours (SPEC.md §3)', () => {
  it.each([
    ['PLANNED', 'PLANNED'],
    ['BACKLOG', 'PLANNED'],
    ['TO_READ', 'PLANNED'],
    ['TO_LISTEN', 'PLANNED'],
    ['WATCHING', 'IN_PROGRESS'],
    ['PLAYING', 'IN_PROGRESS'],
    ['READING', 'IN_PROGRESS'],
    ['COMPLETED', 'DONE'],
    ['UP_TO_DATE', 'DONE'],
    ['READ', 'DONE'],
    ['LISTENED', 'DONE'],
    ['DROPPED', 'DROPPED'],
    ['IN_PROGRESS', 'IN_PROGRESS'],
    ['DONE', 'DONE'],
  ])('%s is painted as %s', (status, phase) => {
    const colors = pc.createColors(true);
    expect(phaseOf(status)).toBe(phase);
    expect(paintPhase('x', status, colors)).toBe(paintPhase('x', phase, colors));
    expect(paintPhase('x', status, colors)).not.toBe('x');
  });

  it('anything else is left as it is', () => {
    expect(phaseOf('SOMETHING_NEW')).toBeUndefined();
    expect(paintPhase('x', 'SOMETHING_NEW', pc.createColors(true))).toBe('x');
    expect(paintPhase('x', 'toString', pc.createColors(true))).toBe('x');
  });
});
