// `npm run mcpb` (or `node scripts/mcpb.mjs [OUT]` after npm run build): lk as an MCP Bundle (OUT, default dist/lk.mcpb), the one-click
// install of Claude Desktop: a zip of manifest.json, bin/lk.cjs and the built dist/*.cjs (no node_modules: lk mcp
// needs neither the keyring's addon nor jq, and the bundle stays the same on every platform). The host runs it with
// its own Node (22.13+, for node:sqlite) as `lk mcp` through the launcher (scripts/mcpb/launch.cjs, bin/mcpb.cjs in the
// bundle), with the settings the user gave (user_config: --live, the profile, the mirror, a key file). The manifest is checked
// against the MCPB manifest schema (scripts/mcpb/manifest-v0.3.schema.json, from github.com/anthropics/mcpb, MIT:
// scripts/mcpb/LICENSE) before anything is written; an invalid one stops the script, exit 1, naming what is wrong.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateRawSync } from 'node:zlib';
import Ajv from 'ajv';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = process.argv[2] ?? join(root, 'dist/lk.mcpb');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** The tools lk mcp serves, as its --help names them (the built program's own list). */
function toolNames() {
  const help = execFileSync(process.execPath, [join(root, 'bin/lk.cjs'), 'mcp', '--help'], {
    encoding: 'utf8',
    env: { ...process.env, COLUMNS: '200' },
  });
  const listed = /comma-separated \(of ([a-z_,\s]+)\)/.exec(help.replace(/\s+/g, ' '));
  if (!listed) throw new Error('lk mcp --help names no tools: run npm run build first');
  return listed[1].split(',').map((name) => name.trim());
}

function manifest() {
  return {
    manifest_version: '0.3',
    name: 'lk',
    display_name: 'lk: your media library',
    version: pkg.version,
    description: 'Your media-tracking library (watched, played, read, listened) for Claude, read-only, from the mirror lk sync keeps.',
    long_description:
      'lk mcp answers from the local mirror of your account (run `lk sync` first, and from cron to keep it fresh): search, your library, history, stats, the calendar, what to take up next, and read-only SQL. Resources lk://status, lk://entry/{id}, lk://report/{year} and lk://schema; prompts tonight, catch-up, year-in-review and recommend; views of the status and the year for hosts that show them. Settings: live (ask the API), the profile, the mirror file. Nothing leaves the machine.',
    author: { name: 'lk' },
    license: pkg.license,
    keywords: ['media', 'library', 'books', 'films', 'games', 'music', 'read-only'],
    server: {
      type: 'node',
      // The program; the host starts it through the launcher that makes its settings arguments (args below).
      entry_point: 'bin/lk.cjs',
      // Each setting the launcher (scripts/mcpb/launch.cjs) makes an argument of lk mcp, or leaves out when empty.
      mcp_config: {
        command: 'node',
        args: [
          '${__dirname}/bin/mcpb.cjs',
          '--live=${user_config.live}',
          '--profile=${user_config.profile}',
          '--db=${user_config.mirror}',
          '--key-file=${user_config.key_file}',
        ],
        env: {},
      },
    },
    user_config: {
      live: {
        type: 'boolean',
        title: 'Ask the API (--live)',
        description:
          "Let get_entry, calendar and the stats summary ask the API, within the rate limit, instead of the mirror alone. Needs the profile's key (or a key file).",
        required: false,
        default: false,
      },
      profile: {
        type: 'string',
        title: 'Profile',
        description:
          'The stored lk profile (lk auth login --profile NAME) whose mirror, and with live whose key, to use. Empty: the default profile.',
        required: false,
      },
      mirror: {
        type: 'file',
        title: 'Mirror',
        description: "The mirror file lk sync writes (--db). Empty: the profile's own.",
        required: false,
      },
      key_file: {
        type: 'file',
        title: 'Key file (with live)',
        description: "A file holding the API key, for live when the profile's key is not in this machine's keyring (LK_API_KEY_FILE).",
        required: false,
      },
    },
    tools: toolNames().map((name) => ({ name })),
    tools_generated: false,
    compatibility: { platforms: ['darwin', 'linux', 'win32'], runtimes: { node: '>=22.13.0' } },
  };
}

/** The problems of a manifest against the MCPB schema, one line each; none when it is valid. */
export function manifestProblems(value) {
  const schema = JSON.parse(readFileSync(join(root, 'scripts/mcpb/manifest-v0.3.schema.json'), 'utf8'));
  const ajv = new Ajv({ allErrors: true });
  ajv.addFormat('email', /^[^\s@]+@[^\s@]+$/);
  ajv.addFormat('uri', (text) => URL.canParse(text));
  const validate = ajv.compile(schema);
  return validate(value) ? [] : validate.errors.map((error) => `${error.instancePath || '/'} ${error.message}`);
}

/** The bundle's files: the launcher, the built program (the single file's folder left out) and the manifest. */
function files(manifestJson) {
  const built = readdirSync(join(root, 'dist'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.cjs'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .filter((path) => !path.startsWith('dist/sea/'))
    .sort();
  return [
    ['manifest.json', Buffer.from(manifestJson)],
    ['bin/lk.cjs', readFileSync(join(root, 'bin/lk.cjs'))],
    ['bin/mcpb.cjs', readFileSync(join(root, 'scripts/mcpb/launch.cjs'))],
    ...built.map((path) => [path, readFileSync(join(root, path))]),
  ];
}

/** A zip (deflated entries, no data descriptors) of [name, bytes] pairs: what an .mcpb is. */
function zip(entries) {
  const locals = [];
  const central = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const nameBytes = Buffer.from(name);
    const packed = deflateRawSync(data);
    const crc = crc32(data);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4); // version needed
    header.writeUInt16LE(0x0800, 6); // UTF-8 names
    header.writeUInt16LE(8, 8); // deflate
    header.writeUInt32LE(0x00210000, 10); // 1980-01-01 00:00: the same bytes for the same files
    header.writeUInt32LE(crc, 14);
    header.writeUInt32LE(packed.length, 18);
    header.writeUInt32LE(data.length, 22);
    header.writeUInt16LE(nameBytes.length, 26);
    locals.push(header, nameBytes, packed);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(0x031e, 4); // made by: Unix
    header.copy(entry, 6, 4, 30);
    entry.writeUInt32LE((name.startsWith('bin/') ? 0o100755 : 0o100644) * 0x10000, 38);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, nameBytes);
    offset += header.length + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const value = manifest();
  const problems = manifestProblems(value);
  if (problems.length > 0) {
    process.stderr.write(`mcpb: the manifest does not fit the MCPB schema: ${problems.join('; ')}\n`);
    process.exit(1);
  }
  // Written beside, then renamed: no half-written bundle under OUT.
  writeFileSync(`${out}.partial`, zip(files(`${JSON.stringify(value, null, 2)}\n`)));
  renameSync(`${out}.partial`, out);
  process.stderr.write(`mcpb: wrote ${relative(process.cwd(), out) || out}\n`);
}
