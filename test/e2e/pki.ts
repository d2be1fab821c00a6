import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/temp-dir.js';

/** A certificate authority of the test's own, made with the openssl CLI, and server certificates it signed. */
export interface TestPki {
  dir: string;
  /** The CA certificate (PEM file). */
  caFile: string;
  /** For 127.0.0.1 and localhost, valid now. */
  valid: { key: string; cert: string };
  /** For 127.0.0.1 and localhost, expired in 2021. */
  expired: { key: string; cert: string };
  /** Valid now, but only for wrong.example. */
  wrongName: { key: string; cert: string };
  /** A certificate for discord.com: a stand-in Discord behind a CONNECT proxy on loopback (lk notify's discord://). */
  discord: { key: string; cert: string };
}

const CA_CONFIG = `
[ ca ]
default_ca = test_ca
[ test_ca ]
dir = .
database = index.txt
new_certs_dir = .
serial = serial
default_md = sha256
policy = anything
copy_extensions = copy
unique_subject = no
[ anything ]
commonName = supplied
`;

export function makeTestPki(): TestPki {
  const dir = tempDir('lk-pki-');
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  writeFileSync(join(dir, 'ca.cnf'), CA_CONFIG);
  writeFileSync(join(dir, 'index.txt'), '');
  writeFileSync(join(dir, 'serial'), '1000\n');
  openssl(
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=lk test CA',
  );
  const server = (name: string, san: string, dates: string[]) => {
    openssl(
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
      '-subj',
      `/CN=${name}`,
      '-addext',
      `subjectAltName=${san}`,
    );
    openssl(
      'ca',
      '-batch',
      '-config',
      'ca.cnf',
      '-cert',
      'ca.pem',
      '-keyfile',
      'ca.key',
      '-in',
      `${name}.csr`,
      '-out',
      `${name}.pem`,
      '-notext',
      ...dates,
    );
    return { key: readFileSync(join(dir, `${name}.key`), 'utf8'), cert: readFileSync(join(dir, `${name}.pem`), 'utf8') };
  };
  return {
    dir,
    caFile: join(dir, 'ca.pem'),
    valid: server('valid', 'IP:127.0.0.1,DNS:localhost', ['-days', '2']),
    expired: server('expired', 'IP:127.0.0.1,DNS:localhost', ['-startdate', '20200101000000Z', '-enddate', '20210101000000Z']),
    wrongName: server('wrong', 'DNS:wrong.example', ['-days', '2']),
    discord: server('discord', 'DNS:discord.com', ['-days', '2']),
  };
}
