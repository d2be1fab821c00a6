import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
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
