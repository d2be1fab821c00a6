import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestBed, virtualClockAt, type TestBed } from '../e2e/harness.js';
import { startReceiver, type Receiver } from '../support/notify-receiver.js';
import { describeWith } from '../support/outside-tools.js';
import { startSmtp } from '../support/smtp-receiver.js';
import { describeWithSqlite } from '../support/sqlite-node.js';
import { tempDir } from '../support/temp-dir.js';

// Issue 48: lk notify against real parts beside its own ntfy-protocol receiver (notify.test.ts): an SMTP server on
// loopback (the smtp-server package) for mailto://, and Debian's apprise, which takes the schemes lk hands it and
// whose json:// body is the one lk's must match key for key.

interface Told {
  kind: string;
  key: string;
  title: string;
  body: string;
}

/** A mail header, unfolded, its RFC 2047 encoded words decoded (nodemailer encodes a subject beyond ASCII). */
function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((candidate) => candidate.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  if (line === undefined) return undefined;
  return line
    .slice(name.length + 1)
    .trim()
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_all, kind: string, text: string) =>
      kind.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_hex, code: string) => String.fromCharCode(parseInt(code, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

/** Debian's apprise, as a person would run it: the receiver answers in this process, so never a synchronous spawn. */
function apprise(args: string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn('apprise', args, { stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

describeWithSqlite('lk notify to real services', () => {
  let bed: TestBed;
  let dir: string;
  let db: string;
  const clock = virtualClockAt(Date.UTC(2026, 2, 2, 6)); // a fixed morning: shows air later that day
  const env = () => ({ LK_CACHE_DIR: join(dir, 'cache') });
  const lk = (args: string[], key: string | null = null) => bed.lk(args, { env: env(), key, now: clock.now, sleep: clock.sleep });
  const notify = (args: string[]) => lk(['notify', '--db', db, ...args]);
  const due = async (target: string) => JSON.parse((await notify(['--to', target, '--dry-run', '--json'])).stdout) as Told[];

  beforeAll(async () => {
    bed = await startTestBed({ entries: 80, rateLimit: 0, exportIntervalSeconds: 0, now: clock.now });
    dir = tempDir('lk-notify-services-');
    db = join(dir, 'mirror.db');
    const synced = await lk(['sync', '--db', db], 'full');
    expect(synced.code, synced.stderr).toBe(0);
  });

  afterAll(async () => {
    await bed.sandbox.close();
  });

  it('mailto:// sends a mail per message through a real SMTP server: Subject the title, the text the body, the login used', async () => {
    const smtp = await startSmtp();
    try {
      const target = `mailto://lk-user:mail-Secret-9@127.0.0.1:${smtp.port}?to=me@example.org&from=lk@example.org`;
      const expected = await due(target);
      const run = await notify(['--to', target]);
      expect(run.code, run.stderr).toBe(0);
      expect(`${run.stdout}${run.stderr}`).not.toContain('mail-Secret-9');
      expect(smtp.mails.map((mail) => header(mail.raw, 'Subject'))).toEqual(expected.map((message) => message.title));
      expect(smtp.mails.every((mail) => mail.user === 'lk-user' && mail.password === 'mail-Secret-9')).toBe(true);
      expect(smtp.mails.every((mail) => mail.from === 'lk@example.org' && mail.to.join() === 'me@example.org')).toBe(true);
      expect(smtp.mails[0]!.raw).toContain(expected[0]!.body.split('\n')[1]!); // the page's link is in the text
      const again = await notify(['--to', target, '--json']);
      expect(again.stdout).toBe('[]\n');
      expect(smtp.mails).toHaveLength(expected.length);
    } finally {
      await smtp.close();
    }
  });

  it('mailto:// to a server that is not there fails that target (exit 1, one masked line) and records nothing for it', async () => {
    const target = 'mailto://who:gone-Secret@127.0.0.1:1?to=me@example.org';
    const run = await notify(['--to', target]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^lk: notify: mailto:\/\/who:\*\*\*@127\.0\.0\.1:1\?to=\*\*\* failed: .*ECONNREFUSED/);
    expect(run.stderr).not.toContain('gone-Secret');
    expect((await due(target)).length).toBeGreaterThan(0);
  });

  describeWith(['apprise'], 'with apprise', () => {
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await startReceiver();
    });
    afterAll(async () => {
      await receiver.close();
    });

    it("lk's json:// body is apprise's, key for key, for the same message", async () => {
      const target = `json://${receiver.url}/lk`;
      const [first] = await due(target);
      const run = await notify(['--to', target]);
      expect(run.code, run.stderr).toBe(0);
      const ours = receiver.taken.find((got) => got.path === '/lk')!;
      expect(await apprise(['-t', first!.title, '-b', first!.body, `json://${receiver.url}/apprise`])).toBe(0);
      const theirs = receiver.taken.find((got) => got.path === '/apprise')!;
      expect(JSON.parse(ours.body)).toEqual(JSON.parse(theirs.body));
      expect(Object.keys(JSON.parse(ours.body) as object).sort()).toEqual(['attachments', 'message', 'title', 'type', 'version']);
      expect(ours.headers['content-type']).toBe(theirs.headers['content-type']);
    });

    it('a scheme lk does not send itself (form://) goes to apprise, which delivers it; once, like every target', async () => {
      const target = `form://${receiver.url}/form`;
      // Start quiet, then one new notification: one apprise run, not one per message the mirror holds.
      expect((await notify(['--to', target, '--mark-sent'])).code).toBe(0);
      bed.sandbox.addNotification('demo', { title: 'Handed to apprise', message: 'Through form://' });
      expect((await lk(['sync', '--db', db, '--full'], 'full')).code).toBe(0);
      const run = await notify(['--to', target, '--json']);
      expect(run.code, run.stderr).toBe(0);
      const told = JSON.parse(run.stdout) as Told[];
      expect(told.map((message) => message.title)).toEqual(['Handed to apprise']);
      const forms = receiver.taken.filter((got) => got.path === '/form').map((got) => new URLSearchParams(got.body));
      expect(forms.map((form) => [form.get('title'), form.get('message')])).toEqual([['Handed to apprise', told[0]!.body]]);
      expect((await notify(['--to', target, '--json'])).stdout).toBe('[]\n');
      expect(receiver.taken.filter((got) => got.path === '/form')).toHaveLength(1);
    });

    it("apprise's failure is the target's: exit 1, one line, nothing recorded", async () => {
      const target = 'form://127.0.0.1:1/refused';
      const before = (await due(target)).length;
      const run = await notify(['--to', target]);
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/^lk: notify: form:\/\/127\.0\.0\.1:1\/\*\*\* failed: apprise exited with \d+/);
      expect((await due(target)).length).toBe(before);
    });
  });
});
