import { readFileSync } from 'node:fs';
import { documentShape } from '../output/shape.js';
import { Option, type Command } from 'commander';
import { ExitCode, LkError, UsageError } from '../util/errors.js';
import { service } from '../output/result.js';
import { addCommand, defineCommand } from './define.js';
import { flag } from './flags.js';
import { TERMINAL_ONLY } from './uses.js';

const SANDBOX_FLAGS = {
  port: flag.count('--port <n>', 'port to listen on (default: a free one)', 0, 65535),
  host: flag.text('--host <address>', 'address to bind (default 127.0.0.1; anything else exposes the demo data)'),
  seed: flag.count('--seed <n>', 'seed of the generated data (same seed, same data)', 0),
  entries: flag.count('--entries <n>', 'library entries of the demo account (up to 100000)', 0, 100_000),
  rateLimit: flag.count('--rate-limit <n>', 'requests per minute per account (0 lifts the limit)', 0),
  exportInterval: flag.count(
    '--export-interval <seconds>',
    'seconds between two exports of an account (default 3600; within its hour lk reads its cache, lk export --fresh asks)',
    0,
  ),
  variant: flag.custom<'default' | 'alt' | undefined>(() =>
    new Option('--variant <name>', 'alt: play a second implementation (UUID ids, other field names)').choices(['default', 'alt']),
  ),
  tlsKey: flag.text('--tls-key <file>', 'serve https with this PEM private key (with --tls-cert)'),
  tlsCert: flag.text('--tls-cert <file>', 'serve https with this PEM certificate or chain (with --tls-key)'),
  // The global --json, declared here too so that this help says what it does for the sandbox.
  json: flag.toggle('--json', 'print the base URL and the demo keys as one JSON object (for scripts and tests)'),
};

/** `lk sandbox`: the reference API with demo data, on loopback, until interrupted. */
const sandboxCommand = defineCommand({
  name: 'sandbox',
  uses: TERMINAL_ONLY,
  description: 'run the bundled reference API with demo data on loopback, until interrupted',
  output: documentShape(['lines', 'json'], 'lines'),
  flags: SANDBOX_FLAGS,
  help: `
While it runs, its data can be changed from this machine over HTTP, to try lk diff, lk export --git or --fresh by
hand: POST a JSON body to the admin routes under /_sandbox (outside the API's /v1; no key; loopback clients only):
/_sandbox/entries/ID/events, /rate, /note, /review, /remove, /_sandbox/entries, /_sandbox/lists,
/_sandbox/notifications, /_sandbox/notifications/ID/read, /_sandbox/profile, /_sandbox/achievements/ID/unlock;
?account=reader for the second account. GET URL/_sandbox lists them with their bodies. A review or list added there
takes "fields", marks of privacy as other servers spell them ({"isPrivate": true}), to try what lk feed --public and
lk serve leave out.
`,
  examples: [
    'lk sandbox --port 8080',
    'lk sandbox --json > sandbox.json &',
    "until grep -qs '}$' sandbox.json; do sleep 0.1; done   # its JSON is whole",
    "LK_BASE_URL=$(jq -r .url sandbox.json) LK_API_KEY=$(jq -r '.keys[0].key' sandbox.json) lk whoami",
    'curl -X POST -H \'Content-Type: application/json\' -d \'{"rating": 2}\' "$(jq -r .url sandbox.json)/_sandbox/entries/ID/rate"',
  ],
  storedConfig: 'unread',
  async run(ctx, out, flags) {
    const options = {
      port: flags.port ?? 0,
      host: flags.host ?? '127.0.0.1',
      seed: flags.seed,
      entries: flags.entries,
      rateLimit: flags.rateLimit,
      exportIntervalSeconds: flags.exportInterval,
      variant: flags.variant,
    };
    // --json (or --format json) given to lk itself or to lk sandbox.
    const json = out.format() === 'json';
    if (!options.host) throw new UsageError('--host needs an address');
    if ((flags.tlsKey === undefined) !== (flags.tlsCert === undefined)) throw new UsageError('--tls-key and --tls-cert go together');
    const tls =
      flags.tlsKey !== undefined && flags.tlsCert !== undefined
        ? { key: readPem('--tls-key', flags.tlsKey), cert: readPem('--tls-cert', flags.tlsCert) }
        : undefined;
    const clean = Object.fromEntries(Object.entries({ ...options, tls }).filter(([, value]) => value !== undefined));
    return service({
      signal: ctx.signal,
      // Ctrl-C ends it as any run (exit 130): a test server has nothing to finish.
      endsCleanly: false,
      async start() {
        // The sandbox, a server of its own: its own file (dist/sandbox.cjs), read when lk sandbox runs, not for its --help.
        const sandbox = await import('../sandbox/index.js');
        const warning = sandbox.exposureWarning(options.host);
        if (warning) ctx.io.warn(warning);
        const started = await sandbox.startSandbox(clean).catch((error: unknown) => {
          throw startFailure(error, `${options.host}:${options.port}`, options.host);
        });
        return { announce: sandbox.announcement(started, json), stop: () => started.close() };
      },
    });
  },
});

/** Why the server could not listen, in one line with what to do. */
function startFailure(error: unknown, where: string, host: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE')
    return new LkError(
      `cannot start the sandbox: ${where} is already in use`,
      ExitCode.failure,
      'Choose another --port, or leave it out for a free one.',
    );
  if (code === 'EACCES')
    return new LkError(
      `cannot start the sandbox: not allowed to listen on ${where}`,
      ExitCode.failure,
      'Ports below 1024 need privileges: choose a --port above 1024.',
    );
  if (code === 'EADDRNOTAVAIL') return new LkError(`cannot start the sandbox: ${host} is not an address of this machine`);
  return error;
}

export function registerSandbox(program: Command): void {
  addCommand(program, sandboxCommand);
}

function readPem(flag: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${flag}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}
