import { createServer } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestBed, virtualClockAt, type TestBed } from '../e2e/harness.js';
import { makeTestPki, type TestPki } from '../e2e/pki.js';
import { startReceiver } from '../support/notify-receiver.js';
import { describeWith } from '../support/outside-tools.js';
import { startSmtp } from '../support/smtp-receiver.js';
import { describeWithSqlite } from '../support/sqlite-node.js';
import { tempDir } from '../support/temp-dir.js';

// Issue 48: lk notify's TLS, against servers with a certificate authority of the test's own (openssl): mailto://
// upgrades with STARTTLS when the server offers it, mailtos:// is TLS from the start, ntfys:// is https; each trusts
// the run's CA file (--cacert) and refuses a certificate nobody vouches for.

describeWithSqlite('lk notify over TLS', () => {
  describeWith(['openssl'], 'with a certificate authority of its own', () => {
    let pki: TestPki;
    let bed: TestBed;
    let dir: string;
    let db: string;
    const clock = virtualClockAt(Date.UTC(2026, 2, 2, 6)); // a fixed morning: shows air later that day
    const lk = (args: string[], key: string | null = null) =>
      bed.lk(args, { env: { LK_CACHE_DIR: join(dir, 'cache') }, key, now: clock.now, sleep: clock.sleep });
    const due = async (target: string) => JSON.parse((await lk(['notify', '--db', db, '--to', target, '--dry-run', '--json'])).stdout) as unknown[];

    beforeAll(async () => {
      pki = makeTestPki();
      bed = await startTestBed({ entries: 40, rateLimit: 0, exportIntervalSeconds: 0, now: clock.now });
      dir = tempDir('lk-notify-tls-');
      db = join(dir, 'mirror.db');
      expect((await lk(['sync', '--db', db], 'full')).code).toBe(0);
    });
    afterAll(() => bed.sandbox.close());

    it('mailto:// upgrades with STARTTLS when the server offers it; mailtos:// is TLS from the start', async () => {
      for (const secure of [false, true]) {
        const smtp = await startSmtp({ key: pki.valid.key, cert: pki.valid.cert, secure });
        try {
          const target = `${secure ? 'mailtos' : 'mailto'}://me:pw@127.0.0.1:${smtp.port}?to=me@example.org`;
          const expected = await due(target);
          const refused = await lk(['notify', '--db', db, '--to', target]);
          expect(refused.code).toBe(1);
          expect(refused.stderr).toMatch(/failed: .*(self[- ]signed|unable to verify|certificate)/i);
          // lk's way to trust it, not Node's (--use-system-ca).
          expect(refused.stderr).toMatch(/trust it with --cacert FILE \(or LK_CA_FILE\)/);
          expect(refused.stderr).not.toMatch(/use-system-ca/);
          expect(smtp.mails).toHaveLength(0);
          const run = await lk(['notify', '--db', db, '--to', target, '--cacert', pki.caFile]);
          expect(run.code, run.stderr).toBe(0);
          expect(smtp.mails).toHaveLength(expected.length);
          expect(smtp.mails.every((mail) => mail.tls)).toBe(true);
        } finally {
          await smtp.close();
        }
      }
    });

    it('discord:// posts to the webhook pinging nobody (allowed_mentions), through the proxy, to a stand-in discord.com', async () => {
      const discord = await startReceiver(undefined, pki.discord);
      // A CONNECT proxy on loopback that takes every tunnel to the stand-in: nothing leaves this machine.
      const proxy = createServer().on('connect', (_req, socket: Socket, head: Buffer) => {
        const upstream = connect(discord.port, '127.0.0.1', () => {
          socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          upstream.write(head);
          upstream.pipe(socket).on('error', () => {});
          socket.pipe(upstream).on('error', () => {});
        });
        upstream.on('error', () => socket.destroy());
        socket.on('error', () => upstream.destroy());
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      try {
        const target = 'discord://1234567890/Webhook-Token/';
        const expected = await due(target);
        const run = await bed.lk(['notify', '--db', db, '--to', target, '--cacert', pki.caFile], {
          env: { LK_CACHE_DIR: join(dir, 'cache'), HTTPS_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` },
          key: null,
          now: clock.now,
          sleep: clock.sleep,
        });
        expect(run.code, run.stderr).toBe(0);
        expect(discord.taken).toHaveLength(expected.length);
        expect(discord.taken.every((got) => got.path === '/api/webhooks/1234567890/Webhook-Token')).toBe(true);
        for (const got of discord.taken) expect(JSON.parse(got.body)).toMatchObject({ allowed_mentions: { parse: [] } });
      } finally {
        proxy.closeAllConnections();
        proxy.close();
        await discord.close();
      }
    });

    it('ntfys:// is https, trusting the run CA file', async () => {
      const receiver = await startReceiver(undefined, pki.valid);
      try {
        const target = `ntfys://${receiver.url}/secure`;
        const refused = await lk(['notify', '--db', db, '--to', target]);
        expect(refused.code).toBe(1);
        expect(receiver.taken).toHaveLength(0);
        expect(refused.stderr).toMatch(/trust it with --cacert FILE \(or LK_CA_FILE\)/);
        expect(refused.stderr).not.toMatch(/use-system-ca/);
        const trusted = await lk(['notify', '--db', db, '--to', target, '--cacert', pki.caFile, '--json']);
        expect(trusted.code, trusted.stderr).toBe(0);
        expect(receiver.taken.length).toBe((JSON.parse(trusted.stdout) as unknown[]).length);
        expect(receiver.taken.length).toBeGreaterThan(0);
      } finally {
        await receiver.close();
      }
    });
  });
});
