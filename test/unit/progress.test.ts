import { clearLine, cursorTo, moveCursor } from 'node:readline';
import { PassThrough } from 'node:stream';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { IoStreams } from '../../src/output/terminal/io.js';
import { countdownWaiter, listingProgress, statusLine } from '../../src/output/terminal/progress.js';
import { until } from '../support/until.js';

/** A run whose stderr is a terminal 80 columns wide; `written()` is everything drawn on it so far. */
function terminalRun(options: { quiet?: boolean } = {}) {
  const stderr = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
  // What a tty.WriteStream adds, and ora uses to redraw its line.
  Object.assign(stderr, {
    cursorTo: (x: number) => cursorTo(stderr, x),
    clearLine: (dir: -1 | 0 | 1) => clearLine(stderr, dir),
    moveCursor: (dx: number, dy: number) => moveCursor(stderr, dx, dy),
  });
  let text = '';
  stderr.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  const io = new IoStreams({ stdout: new PassThrough(), stderr, env: {}, ...options });
  return { io, written: () => text };
}

describe('the status line on stderr', () => {
  it('is one per run, shared by everything that reports progress', () => {
    const { io } = terminalRun();
    expect(statusLine(io)).toBeDefined();
    expect(statusLine(io)).toBe(statusLine(io));
  });

  it('does not exist in a pipe or with -q', () => {
    expect(statusLine(new IoStreams({ stderr: new PassThrough(), env: {} }))).toBeUndefined();
    expect(statusLine(terminalRun({ quiet: true }).io)).toBeUndefined();
  });

  it('shows the paging count and a rate-limit countdown together on one line, then clears it', async () => {
    const { io, written } = terminalRun();
    const progress = listingProgress(io, 'entries');
    progress.page(100, 4210, true);
    // A clock that stands still and a wait that ends when the test says: the countdown reads 2s however loaded the machine.
    let endWait = () => {};
    const held = () => new Promise<void>((resolve) => (endWait = resolve));
    const waited = countdownWaiter(io, () => 0, held)(1100, 'for the rate limit', undefined);
    await until(() => written().includes('100 / 4,210 entries · waiting'));
    expect(written()).toMatch(/100 \/ 4,210 entries · waiting 2s for the rate limit/);
    endWait();
    await waited;
    progress.page(200, 4210, true);
    await until(() => /200 \/ 4,210 entries(?! ·)/.test(written()));
    progress.end();
    // ora clears its line when it stops: the last thing drawn is the erase (and the cursor shown again), not a frame.
    await until(() => /\u001b\[0K(\u001b\[\?25h)?$/.test(written()));
    expect(written()).toMatch(/\u001b\[0K(\u001b\[\?25h)?$/);
  });

  it('a listing that is over at once never shows a spinner', async () => {
    // Node's timers faked: the moment a listing still paging shows its line passes in no time. A listing still paging
    // beside it is the control: once its line is drawn, the one that ended had its chance to draw too.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const over = terminalRun();
    const paging = terminalRun();
    const ended = listingProgress(over.io, 'entries');
    ended.page(20, 250, true);
    ended.end();
    listingProgress(paging.io, 'entries').page(20, 250, true);
    await vi.advanceTimersByTimeAsync(1000);
    await until(() => paging.written().includes('20 / 250 entries'));
    expect(over.written()).toBe('');
  });
});
