import { ApiClient, type ClientOptions } from './client.js';
import { UsageError } from '../util/errors.js';

/** What a person should know as the client is made: said by the caller, worded in output/wording/messages.ts. */
export type ConnectionNotice =
  { kind: 'key-over-plain-http'; host: string } | { kind: 'key-in-clear-through-proxy'; proxy: string; host: string; hostname: string };

export interface ClientRequest extends Omit<ClientOptions, 'ca'> {
  /** The key goes over plain http to a host that is not this machine, as its profile allowed (lk auth login --allow-http). */
  plainHttpAllowed: boolean;
  /** A probe (lk doctor) reports what it meets, and is told nothing. */
  probe: boolean;
  /** The CA file to trust besides Node's own, and which setting named it. */
  caFile: { file: string; source: string } | undefined;
  notify: (notice: ConnectionNotice) => void;
}

/** The API client of a run (loaded on first use, so that commands without requests never load undici). */
export async function openClient({ plainHttpAllowed, probe, caFile, notify, ...options }: ClientRequest): Promise<ApiClient> {
  const url = new URL(options.baseUrl);
  if (plainHttpAllowed) notify({ kind: 'key-over-plain-http', host: url.host });
  const ca = caFile ? await trustedCertificates(caFile) : undefined;
  const client = new ApiClient({ ...options, ca });
  const proxy = client.proxyFor(url);
  // No TLS inside the tunnel: whoever runs the proxy can read the key.
  if (proxy && url.protocol === 'http:' && !probe) notify({ kind: 'key-in-clear-through-proxy', proxy, host: url.host, hostname: url.hostname });
  return client;
}

/** Node's CAs plus the named file; a file that cannot be used is a usage error naming the setting it came from. */
async function trustedCertificates(caFile: { file: string; source: string }): Promise<string[]> {
  // node:tls, only for a run given a CA file.
  const { trustedCertificates } = await import('./ca.js');
  try {
    return trustedCertificates(caFile.file);
  } catch (error) {
    throw new UsageError(`${(error as Error).message} (from ${caFile.source})`);
  }
}
