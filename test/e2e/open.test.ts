import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusedBeforeAnyRequest, startTestBed, type TestBed } from './harness.js';
import { tempDir } from '../support/temp-dir.js';

let bed: TestBed;
let dir: string;
let entry: { id: string; url: string; work: { url: string } };
let list: { id: string; url: string };

/** A BROWSER that records the URL it is given (one a line) and exits `code`. */
function recordingBrowser(code = 0): { env: Record<string, string>; urls: () => string[] } {
  const folder = mkdtempSync(join(dir, 'browser-'));
  const script = join(folder, 'browser.sh');
  writeFileSync(script, `#!/bin/sh\nprintf '%s\\n' "$@" >> '${join(folder, 'urls')}'\nexit ${code}\n`);
  chmodSync(script, 0o755);
  const file = join(folder, 'urls');
  return { env: { BROWSER: script, DISPLAY: ':0' }, urls: () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []) };
}

beforeAll(async () => {
  bed = await startTestBed({ entries: 30 });
  dir = tempDir('lk-open-');
  entry = (JSON.parse((await bed.lk(['library', '--max', '1', '--json'])).stdout) as (typeof entry)[])[0]!;
  list = (JSON.parse((await bed.lk(['lists', '--json'])).stdout) as (typeof list)[])[0]!;
});

afterAll(async () => {
  await bed.sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('lk open', () => {
  it("opens the entry's url in BROWSER on a terminal, and says so on stderr", async () => {
    const browser = recordingBrowser();
    const result = await bed.lk(['open', entry.id], { env: browser.env, tty: {} });
    expect(result.code, result.stderr).toBe(0);
    expect(browser.urls()).toEqual([entry.url]);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Opening ${entry.url}`);
  });

  it('--work opens the work page, --list ID the list page, --profile-page the profile', async () => {
    const browser = recordingBrowser();
    expect((await bed.lk(['open', entry.id, '--work'], { env: browser.env, tty: {} })).code).toBe(0);
    expect((await bed.lk(['open', '--list', list.id], { env: browser.env, tty: {} })).code).toBe(0);
    expect((await bed.lk(['open', '--profile-page'], { env: browser.env, tty: {} })).code).toBe(0);
    const urls = browser.urls();
    expect(urls.slice(0, 2)).toEqual([entry.work.url, list.url]);
    expect(urls[2]).toMatch(/^https:\/\/.+\/u\//);
  });

  it('prints the URL instead where no browser can be opened: a pipe, ssh, no display, -n', async () => {
    const browser = recordingBrowser();
    const piped = await bed.lk(['open', entry.id], { env: browser.env });
    expect(piped).toMatchObject({ code: 0, stdout: `${entry.url}\n` });
    const noBrowserSet = { BROWSER: undefined };
    const ssh = await bed.lk(['open', entry.id], { env: { ...noBrowserSet, DISPLAY: ':0', SSH_CONNECTION: '10.0.0.1 5555 10.0.0.2 22' }, tty: {} });
    expect(ssh).toMatchObject({ code: 0, stdout: `${entry.url}\n` });
    const headless = await bed.lk(['open', entry.id], { env: { ...noBrowserSet, DISPLAY: undefined, WAYLAND_DISPLAY: undefined }, tty: {} });
    expect(headless).toMatchObject({ code: 0, stdout: `${entry.url}\n` });
    const flag = await bed.lk(['open', entry.id, '-n'], { env: browser.env, tty: {} });
    expect(flag).toMatchObject({ code: 0, stdout: `${entry.url}\n` });
    expect(browser.urls()).toEqual([]);
  });

  it('a browser that fails: exit 1, and the URL in the hint to open by hand', async () => {
    const browser = recordingBrowser(3);
    const result = await bed.lk(['open', entry.id], { env: { ...browser.env, NO_COLOR: '1' }, tty: {} });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^lk: could not open the browser: .* exited with 3/m);
    expect(result.stderr).toContain(entry.url);
  });

  it('a URL with shell syntax reaches the browser as one argument, never run', async () => {
    const browser = recordingBrowser();
    // BROWSER with the old %s convention.
    const result = await bed.lk(['open', entry.id], { env: { ...browser.env, BROWSER: `${browser.env.BROWSER} --new-tab %s` }, tty: {} });
    expect(result.code).toBe(0);
    expect(browser.urls()).toEqual(['--new-tab', entry.url]);
  });

  it('an unknown entry exits 6; no target, two targets or a bad id exit 2 before any request', async () => {
    expect((await bed.lk(['open', 'nope404'])).code).toBe(6);
    await expectRefusedBeforeAnyRequest(bed, ['open']);
    await expectRefusedBeforeAnyRequest(bed, ['open', entry.id, '--list', list.id]);
    await expectRefusedBeforeAnyRequest(bed, ['open', '../etc']);
    await expectRefusedBeforeAnyRequest(bed, ['open', '--profile-page', '--work']);
  });
});

describe('URLs in a show view', () => {
  it('are never cut, however narrow the terminal', async () => {
    const result = await bed.lk(['library', 'show', entry.id], { tty: { columns: 30 } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(entry.url);
    expect(result.stdout).toContain(entry.work.url);
  });
});
