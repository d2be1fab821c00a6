import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../support/ports.js';
import { tempDir } from '../support/temp-dir.js';

/** A real forward proxy (Debian's tinyproxy) on loopback, with a config of the test's own. */
export interface TestProxy {
  url: string;
  port: number;
  /** Everything tinyproxy logged so far. */
  log(): string;
  /** The CONNECT requests it received, e.g. ["127.0.0.1:41234"]. */
  tunnels(): string[];
  stop(): Promise<void>;
}

/** `extra`: more config lines, e.g. `BasicAuth user secret`, or `ConnectPort 1` for a proxy that refuses tunnels. */
export async function startTinyproxy(extra: string[] = []): Promise<TestProxy> {
  const dir = tempDir('lk-proxy-');
  const port = await freePort();
  const config = join(dir, 'tinyproxy.conf');
  writeFileSync(
    config,
    [`Port ${port}`, 'Listen 127.0.0.1', 'Timeout 30', 'Allow 127.0.0.1', 'LogLevel Info', 'MaxClients 20', ...extra, ''].join('\n'),
  );
  const child: ChildProcess = spawn('tinyproxy', ['-d', '-c', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const deadline = Date.now() + 10_000;
  while (!/Accepting connections/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`tinyproxy did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    log: () => output,
    tunnels: () => [...output.matchAll(/Request \(file descriptor \d+\): CONNECT (\S+)/g)].map((match) => match[1]!),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
