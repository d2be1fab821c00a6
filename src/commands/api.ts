import { Option, type Command } from 'commander';
import { documentShape } from '../output/shape.js';
import type { Headers, Query } from '../api/client.js';
import { isEnvelope, MAX_PAGE_SIZE, paginate, type Page } from '../api/paginate.js';
import { parseField, parseRawPath } from '../api/raw-path.js';
import type { Context } from '../context.js';
import type { IoStreams } from '../output/terminal/io.js';
import { sanitizeMessage } from '../output/terminal/sanitize.js';
import { document, type Document } from '../output/result.js';
import { addCommand, defineCommand, operand } from './define.js';
import { flag, type OptionsOf } from './flags.js';
import { wholeNumber } from '../util/whole-number.js';
import { REQUESTS } from './uses.js';

const API_FLAGS = {
  field: flag.custom<Query | undefined>(() =>
    new Option('-F, --field <key=value>', 'add a query parameter (repeatable)').argParser((raw: string, previous: Query) =>
      parseField(raw, previous),
    ),
  ),
  paginate: flag.toggle('--paginate', 'follow hasMore (limit=100 unless -F limit) and print one JSON array of every item'),
  include: flag.toggle('--include', 'print the status line and response headers to stderr'),
};

/** `lk api PATH`: a raw GET, the JSON as the server sent it. */
const apiCommand = defineCommand({
  name: 'api',
  uses: REQUESTS,
  description: 'raw GET of any path under /v1; prints the JSON as the server sent it',
  output: documentShape(['json'], 'json', {
    jq: ['json'],
    instead: { '--fields': "it prints the JSON as the server sent it; reshape it with jq: lk api /v1/me | jq '.account'" },
  }),
  operands: [operand('<path>', 'a path under /v1, e.g. /v1/me or /v1/library?limit=5')],
  flags: API_FLAGS,
  examples: [
    'lk api /v1/me',
    "lk api /v1/library -F phase=DONE --paginate | jq 'length'",
    'lk api /v1/calendar --include 2>&1 >/dev/null | grep -i ^x-ratelimit',
    '0 4 * * *  lk api /v1/stats/summary > ~/stats-$(date +\\%F).json',
  ],
  run: (ctx, _out, options, [rawPath]) => run(ctx, options, rawPath),
});

export function registerApi(program: Command): void {
  addCommand(program, apiCommand);
}

async function run(ctx: Context, options: OptionsOf<typeof API_FLAGS>, rawPath: string): Promise<Document> {
  const { path, query: pathQuery } = parseRawPath(rawPath);
  const query = { ...pathQuery, ...options.field };
  const { page, limit, ...rest } = query;
  const paging = options.paginate
    ? {
        all: true,
        raw: true,
        page: page === undefined ? undefined : wholeNumber('-F page', String(page), 1),
        limit: limit === undefined ? undefined : wholeNumber('-F limit', String(limit), 1, MAX_PAGE_SIZE),
      }
    : undefined;
  const include = Boolean(options.include);
  return document({
    format: 'json',
    // For a person: indented and coloured, every number and string as the server spelled it. Pipes get the bytes.
    terminal: 'json',
    async make() {
      const client = await ctx.client();
      if (!paging) {
        const response = await client.get(path, query);
        if (include) printHead(ctx.io, response.status, response.headers);
        return { data: response.text.endsWith('\n') ? response.text : `${response.text}\n` };
      }
      const pages = paginate(client, path, rest, paging)[Symbol.asyncIterator]();
      const first = await pages.next();
      const heads = include ? (page: Page) => printHead(ctx.io, page.status, page.headers) : undefined;
      if (first.done) return { data: { items: itemsOf([], pages, heads) } };
      heads?.(first.value);
      // A body that is not an envelope is printed whole.
      if (!isEnvelope(first.value.body)) return { data: `${JSON.stringify(first.value.body)}\n` };
      return { data: { items: itemsOf(first.value.items, pages, heads) } };
    },
  });
}

/** The items of every page, the first page's already in hand; each page's head said as it comes (--include). */
async function* itemsOf(first: unknown[], rest: AsyncIterator<Page>, head: ((page: Page) => void) | undefined): AsyncGenerator<unknown[]> {
  try {
    yield first;
    for (let next = await rest.next(); !next.done; next = await rest.next()) {
      head?.(next.value);
      yield next.value.items;
    }
  } finally {
    await rest.return?.();
  }
}

function printHead(io: IoStreams, status: number, headers: Headers): void {
  let text = `HTTP ${status}\n`;
  for (const [name, value] of Object.entries(headers)) {
    for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) text += `${name}: ${one}\n`;
  }
  io.warn(sanitizeMessage(`${text}\n`));
}
