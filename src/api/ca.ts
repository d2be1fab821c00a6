import { readFileSync } from 'node:fs';
import * as tls from 'node:tls';
import { LkError } from '../util/errors.js';

/**
 * The CAs to trust when a CA file is named: everything Node trusts by default (its bundle, NODE_EXTRA_CA_CERTS, the
 * system store with --use-system-ca) plus the file. A `ca` option replaces Node's defaults, so they are all listed.
 */
export function trustedCertificates(caFile: string, processEnv: NodeJS.ProcessEnv = process.env): string[] {
  let extra: string;
  try {
    extra = readFileSync(caFile, 'utf8');
  } catch (error) {
    throw new LkError(`cannot read the CA file ${caFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 2);
  }
  if (!/-----BEGIN CERTIFICATE-----/.test(extra)) throw new LkError(`the CA file ${caFile} holds no PEM certificate`, 2);
  const getCACertificates = (tls as { getCACertificates?: (type?: string) => string[] }).getCACertificates;
  let defaults: string[];
  if (getCACertificates) {
    defaults = getCACertificates('default');
  } else {
    // Node 20: the bundled roots, plus NODE_EXTRA_CA_CERTS as Node itself read it at start.
    defaults = [...tls.rootCertificates];
    const nodeExtra = processEnv.NODE_EXTRA_CA_CERTS;
    if (nodeExtra) {
      try {
        defaults.push(readFileSync(nodeExtra, 'utf8'));
      } catch {
        // Node warned about it at start; nothing to add
      }
    }
  }
  return [...defaults, extra];
}
