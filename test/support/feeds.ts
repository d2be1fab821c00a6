import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

const PARSE = `
import json, sys, feedparser
d = feedparser.parse(sys.stdin.buffer.read())
def content(e):
    c = e.get('content') or [{}]
    return c[0].get('value')
print(json.dumps({
    'bozo': bool(d.bozo), 'error': str(d.get('bozo_exception') or ''), 'version': d.version,
    'feed': {k: d.feed.get(k) for k in ('title', 'id', 'updated', 'link')},
    'entries': [{'id': e.get('id'), 'title': e.get('title'), 'updated': e.get('updated'), 'published': e.get('published'),
                 'link': e.get('link'), 'content': content(e)} for e in d.entries],
}))
`;

export function feedparser(feed: string): Parsed {
  const result = spawnSync(DEBIAN_PYTHON, ['-c', PARSE], { input: feed, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`feedparser failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Parsed;
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
