/**
 * The sandbox: a reference implementation of the API (docs/api.md) with generated demo data, for trying `lk` without an account
 * and for the project's end-to-end tests. README.md (next to this file) documents every choice docs/api.md leaves open.
 */
import { buildDemoKeys } from './auth.js';
import { SandboxData, type AccountSpec } from './data.js';
import type { FaultOptions } from './faults.js';
import { DOMAINS, iso, startOfUtcDay } from './model.js';
import { SandboxServer, type SandboxCounters } from './server.js';
import { sandboxMutations, type SandboxMutations } from './mutations.js';
import { AltVariant, VARIANTS, type Variant } from './variant.js';

export type { Variant } from './variant.js';
export type { ExportCollection } from './export.js';
import type { ExportCollection } from './export.js';

export type { FaultOptions } from './faults.js';
export type { SandboxCounters } from './server.js';
export { checksumKey, isWellFormedKey, makeKey } from './keys.js';

export interface SandboxOptions {
  /** Address to bind (default 127.0.0.1). Anything but loopback exposes the demo data to the network. */
  host?: string;
  /** Port (default 0: a free one). */
  port?: number;
  /** Same seed → same data, same keys (default 42). */
  seed?: number;
  /** Library entries of the demo account (default 250). */
  entries?: number;
  /** Requests per minute per account, shared by all its keys (default 60); 0 lifts the limit. */
  rateLimit?: number;
  /** Seconds between two exports of an account (default 3600). */
  exportIntervalSeconds?: number;
  faults?: FaultOptions;
  /** Clock, ms since the epoch (default Date.now). */
  now?: () => number;
  /**
   * 'alt' plays a second implementation of docs/api.md: UUID ids, an owner object, notifications with title, body and
   * readAt, and other names for every field docs/api.md does not fix (README.md, "The alt variant"). Default 'default'.
   */
  variant?: Variant;
  /** Serve https with this PEM private key and certificate (or chain); the URL then starts with https://. */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /**
   * Collections GET /v1/export leaves out, as an instance may (docs/api.md does not fix the export's fields): `profile`,
   * `achievements`, `notifications`, `lists`, `reviews`. Default: none.
   */
  exportLeavesOut?: readonly ExportCollection[];
  /**
   * An export that numbers entries its own way, as an instance may (docs/api.md does not fix the export's shape):
   * each entry's id and each event's entryId in it carry this prefix; the API's ids are unchanged. Default: none.
   */
  exportEntryIdPrefix?: string;
  /**
   * GET /v1/stats/summary carries `generatedAt`, the moment it was made (docs/api.md neither shows nor forbids it): an
   * instance whose stats change at every request, as lk serve must not churn on. Default false.
   */
  statsGeneratedAt?: boolean;
}

export interface DemoKey {
  name: string;
  key: string;
  account: string;
  scopes: string[];
  expiresAt: string | null;
  description: string;
}

export interface Sandbox extends SandboxMutations {
  /** Base URL, the address in front of /v1, e.g. "http://127.0.0.1:41234". */
  url: string;
  keys: DemoKey[];
  /** A demo key by name; throws on an unknown name. */
  key(name: string): string;
  counters: SandboxCounters;
  /** Mutable at run time; assigning new options restarts the fault sequence. */
  faults: FaultOptions;
  /**
   * Called before each authorised request is answered, with its route's name and query: a test's way to change the
   * account between two pages of one listing. Mutable; undefined for none.
   */
  beforeRoute: ((route: string, query: URLSearchParams) => void) | undefined;
  resetCounters(): void;
  /** Closes the server and every connection, keep-alive ones included. */
  close(): Promise<void>;
}

export const DEFAULTS = {
  host: '127.0.0.1',
  port: 0,
  seed: 42,
  entries: 250,
  rateLimit: 60,
  exportIntervalSeconds: 3600,
} as const;

/** Entries of the small second account, "reader". */
export const READER_ENTRIES = 60;

function wholeNumber(name: string, value: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!Number.isSafeInteger(value) || value < 0 || value > max)
    throw new RangeError(`sandbox option ${name} must be a whole number from 0 to ${max} (got ${value})`);
  return value;
}

function accountSpecs(entries: number): AccountSpec[] {
  return [
    {
      username: 'demo',
      displayName: 'Demo User',
      language: 'en',
      timezone: 'Europe/London',
      domains: [...DOMAINS],
      entries,
      bio: 'Films on Fridays, a book on the train, too many games in the backlog.',
      location: 'Brighton, UK',
      showcase: true,
    },
    {
      username: 'reader',
      displayName: 'Élodie Lecteur',
      language: 'fr',
      timezone: 'Europe/Paris',
      domains: ['MEDIA', 'BOOKS', 'MUSIC'],
      entries: READER_ENTRIES,
      bio: 'Lectrice, cinéphile, jamais de jeux vidéo.',
      location: null,
      showcase: false,
    },
  ];
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const now = options.now ?? Date.now;
  const seed = wholeNumber('seed', options.seed ?? DEFAULTS.seed, 0xffff_ffff);
  const entries = wholeNumber('entries', options.entries ?? DEFAULTS.entries, 1_000_000);
  const rateLimit = wholeNumber('rateLimit', options.rateLimit ?? DEFAULTS.rateLimit);
  const exportIntervalSeconds = wholeNumber('exportIntervalSeconds', options.exportIntervalSeconds ?? DEFAULTS.exportIntervalSeconds);
  const startedAt = now();
  const data = new SandboxData(seed, startOfUtcDay(startedAt), accountSpecs(entries));
  const keyRecords = buildDemoKeys(seed, startedAt);
  const variant = options.variant ?? 'default';
  if (!VARIANTS.includes(variant)) throw new RangeError(`sandbox option variant must be one of ${VARIANTS.join(', ')} (got ${String(variant)})`);
  const alt = variant === 'alt' ? new AltVariant() : undefined;
  const mutations = sandboxMutations(data, alt, now);
  const server = new SandboxServer({
    data,
    keys: keyRecords,
    rateLimit,
    exportIntervalSeconds,
    seed,
    now,
    faults: options.faults ?? {},
    variant: alt,
    tls: options.tls,
    exportLeavesOut: new Set(options.exportLeavesOut ?? []),
    // The alt variant's export is the default's with UUID ids (README.md, "The alt variant"), as its pages are.
    exportDress: {
      item: alt ? (item) => alt.exportItem(item) : (item) => item,
      entryId: options.exportEntryIdPrefix ? (id) => `${options.exportEntryIdPrefix}${id}` : undefined,
    },
    statsGeneratedAt: options.statsGeneratedAt ?? false,
    mutations,
  });
  const address = await server.listen(options.port ?? DEFAULTS.port, options.host ?? DEFAULTS.host);
  const hostForUrl = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
  const keys: DemoKey[] = keyRecords.map((record) => ({
    name: record.name,
    key: record.key,
    account: record.account,
    scopes: [...record.scopes],
    expiresAt: iso(record.expiresAt),
    description: record.description,
  }));
  return {
    url: `${options.tls ? 'https' : 'http'}://${hostForUrl}:${address.port}`,
    keys,
    key(name: string): string {
      const found = keys.find((key) => key.name === name);
      if (!found) throw new Error(`no demo key named ${JSON.stringify(name)} (known: ${keys.map((key) => key.name).join(', ')})`);
      return found.key;
    },
    counters: server.counters,
    get faults(): FaultOptions {
      return server.faults;
    },
    set faults(faults: FaultOptions) {
      server.faults = faults;
    },
    get beforeRoute() {
      return server.beforeRoute;
    },
    set beforeRoute(hook) {
      server.beforeRoute = hook;
    },
    resetCounters: () => server.resetCounters(),
    ...mutations,
    addEntries: (account: string, n: number) => mutations.addEntries(account, wholeNumber('n', n)),
    close: () => server.close(),
  };
}

/** True for addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\./.test(bare) || /^::ffff:127\./.test(bare);
}

/** Said on stderr before a sandbox listens on anything but loopback; undefined for loopback. */
export function exposureWarning(host: string = DEFAULTS.host): string | undefined {
  if (isLoopback(host)) return undefined;
  return `WARNING: the sandbox is listening on ${host}, not on loopback: anyone who can reach this machine on that network can read the demo data with the keys printed below.\n`;
}

/** What `lk sandbox` prints once listening: its base URL and demo keys, as lines for a person or one JSON object. */
export function announcement(sandbox: Sandbox, json: boolean | undefined): string {
  if (json) return `${JSON.stringify({ url: sandbox.url, keys: sandbox.keys })}\n`;
  const width = Math.max(...sandbox.keys.map((key) => key.name.length));
  const lines = [
    `lk sandbox: the reference API with demo data is listening on ${sandbox.url}`,
    '',
    'Demo keys:',
    ...sandbox.keys.map((key) => `  ${key.name.padEnd(width)}  ${key.key}  ${key.account}: ${key.description}`),
    '',
    'Try it:',
    `  LK_BASE_URL=${sandbox.url} LK_API_KEY=${sandbox.key('full')} lk whoami`,
    '',
    'Press Ctrl-C to stop.',
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * Starts the server and prints its base URL and demo keys (a listing, or one JSON object with json: true). Returns
 * once listening; the open server keeps the process alive.
 */
export async function runSandboxCommand(
  options: SandboxOptions & { json?: boolean },
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<Sandbox> {
  const { json, ...sandboxOptions } = options;
  const warning = exposureWarning(sandboxOptions.host);
  if (warning) io.stderr.write(warning);
  const sandbox = await startSandbox(sandboxOptions);
  io.stdout.write(announcement(sandbox, json));
  return sandbox;
}
