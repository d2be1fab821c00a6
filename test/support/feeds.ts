import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Ajv } from 'ajv';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { DEBIAN_PYTHON } from './outside-tools.js';

/** What Debian's feedparser (python3-feedparser) made of a feed: its warnings (bozo), the feed and its entries. */
export interface Parsed {
  bozo: boolean;
  error: string;
  version: string;
  feed: { title: string | null; id: string | null; updated: string | null; link: string | null };
  entries: Array<{
    id: string | null;
    title: string | null;
    updated: string | null;
    published: string | null;
    link: string | null;
    content: string | null;
  }>;
}

/**
 * One python per worker, parsing every feed the worker's tests give it: documents go in on stdin, each as a line with
 * its length in bytes and then its bytes, and each answer comes back as one line of JSON, in order. Importing
 * feedparser takes a python about 100 ms; a python per feed spent 2.4 s of CPU on the quick tests. The python ends when
 * its stdin closes, which the worker's end does.
 */
const PARSE_EACH = `
import json, sys, feedparser
def content(e):
    c = e.get('content') or [{}]
    return c[0].get('value')
while True:
    size = sys.stdin.buffer.readline()
    if not size:
        break
    d = feedparser.parse(sys.stdin.buffer.read(int(size)))
    sys.stdout.write(json.dumps({
        'bozo': bool(d.bozo), 'error': str(d.get('bozo_exception') or ''), 'version': d.version,
        'feed': {k: d.feed.get(k) for k in ('title', 'id', 'updated', 'link')},
        'entries': [{'id': e.get('id'), 'title': e.get('title'), 'updated': e.get('updated'), 'published': e.get('published'),
                     'link': e.get('link'), 'content': content(e)} for e in d.entries],
    }) + '\\n')
    sys.stdout.flush()
`;

interface Parser {
  send(feed: string): Promise<Parsed>;
}

let parser: Parser | undefined;

function startParser(): Parser {
  const child = spawn(DEBIAN_PYTHON, ['-c', PARSE_EACH], { stdio: ['pipe', 'pipe', 'pipe'] });
  const waiting: Array<{ resolve: (parsed: Parsed) => void; reject: (error: Error) => void }> = [];
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  createInterface({ input: child.stdout }).on('line', (line) => waiting.shift()?.resolve(JSON.parse(line) as Parsed));
  child.on('close', (code) => {
    parser = undefined;
    for (const { reject } of waiting.splice(0)) reject(new Error(`feedparser ended (exit ${code}): ${stderr}`));
  });
  // Neither the python nor its pipes keep the worker alive; it ends with the worker (its stdin closes).
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr] as unknown as Array<{ unref?: () => void }>) stream.unref?.();
  return {
    send: (feed) =>
      new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        const bytes = Buffer.from(feed);
        child.stdin.write(`${bytes.length}\n`);
        child.stdin.write(bytes);
      }),
  };
}

/** What Debian's feedparser (python3-feedparser) makes of `feed`. */
export function feedparser(feed: string): Promise<Parsed> {
  parser ??= startParser();
  return parser.send(feed);
}

const schema = JSON.parse(readFileSync(new URL('./json-feed-1.1.schema.json', import.meta.url), 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: true, strictRequired: false }).compile(schema);

/** The errors of a JSON Feed against JSON Feed 1.1 (test/support/json-feed-1.1.schema.json): [] when valid. */
export function jsonFeedErrors(feed: unknown): string[] {
  return validate(feed) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
}

/**
 * What RFC 4287 requires of an Atom document that feedparser does not check (§4.1.1, §4.1.2): a well-formed document
 * whose feed has exactly one id, title and updated and an author (or every entry has one), and whose entries each have
 * exactly one id, title and updated, and a link or content; dates are RFC 3339. The problems found, [] when none.
 */
export function atomProblems(atom: string): string[] {
  const wellFormed = XMLValidator.validate(atom);
  if (wellFormed !== true) return [`not well-formed: ${wellFormed.err.msg} (line ${wellFormed.err.line})`];
  const parsed = new XMLParser({ ignoreAttributes: false, isArray: () => true }).parse(atom) as { feed?: Array<Record<string, unknown[]>> };
  const feed = parsed.feed?.[0];
  if (!feed) return ['no <feed> root'];
  const problems: string[] = [];
  const date = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
  const once = (element: Record<string, unknown[]>, name: string, where: string) => {
    if (element[name]?.length !== 1) problems.push(`${where}: ${element[name]?.length ?? 0} <${name}>, not 1`);
  };
  for (const name of ['id', 'title', 'updated']) once(feed, name, 'feed');
  const entries = (feed.entry ?? []) as Array<Record<string, unknown[]>>;
  if (!feed.author && entries.some((entry) => !entry.author)) problems.push('feed: no <author>, and an entry has none');
  for (const [index, entry] of entries.entries()) {
    for (const name of ['id', 'title', 'updated']) once(entry, name, `entry ${index}`);
    if (!entry.link && !entry.content) problems.push(`entry ${index}: neither <link> nor <content>`);
    for (const name of ['updated', 'published']) {
      const value = entry[name]?.[0];
      if (value !== undefined && !date.test(String(value))) problems.push(`entry ${index}: <${name}> ${String(value)} is not RFC 3339`);
    }
  }
  return problems;
}
