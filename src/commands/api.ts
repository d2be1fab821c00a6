import { Option, type Command } from 'commander';
import { documentShape } from '../output/shape.js';
import type { Headers, Query } from '../api/client.js';
import { isEnvelope, MAX_PAGE_SIZE, paginate, type Page } from '../api/paginate.js';
import { parseField, parseRawPath } from '../api/raw-path.js';
import type { Context } from '../context.js';
import type { IoStreams } from '../output/terminal/io.js';
import { json } from '../output/formats/json.js';
import { isJsonText, prettyJson } from '../output/formats/pretty-json.js';
import { sanitizeMessage } from '../output/terminal/sanitize.js';
import { genericView } from '../output/formats/view.js';
import type { OutputOptions } from '../output/formats/writer.js';
import type { OutputSession } from '../output/session.js';
import { addCommand, defineCommand, operand } from './define.js';
import { flag, type OptionsOf } from './flags.js';
import { wholeNumber } from './options.js';
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
  run: (ctx, out, options, [rawPath]) => run(ctx, out, options, rawPath),
});

export function registerApi(program: Command): void {
  addCommand(program, apiCommand);
}

async function run(ctx: Context, out: OutputSession, options: OptionsOf<typeof API_FLAGS>, rawPath: string): Promise<void> {
  const { path, query: pathQuery } = parseRawPath(rawPath);
  const query = { ...pathQuery, ...options.field };
  const client = await ctx.client();
  if (!options.paginate) {
    const response = await client.get(path, query);
    if (options.include) printHead(out.io, response.status, response.headers);
    if (out.io.stdoutIsTTY && isJsonText(response.text)) {
      // For a person: indented and coloured, every number and string as the server spelled it. Pipes get the bytes.
      await out.io.write(`${prettyJson(response.text, { colors: await out.colors() })}\n`);
      return;
    }
    // Not JSON (or not a terminal): as sent, but on a terminal with what it would act on shown escaped.
    await out.io.writeExact(response.text.endsWith('\n') ? response.text : `${response.text}\n`);
    return;
  }
  const { page, limit, ...rest } = query;
  const paging = {
    all: true,
    raw: true,
    page: page === undefined ? undefined : wholeNumber('-F page', String(page), 1),
    limit: limit === undefined ? undefined : wholeNumber('-F limit', String(limit), 1, MAX_PAGE_SIZE),
  };
  const output = { ...(await out.outputOptions()), format: 'json' as const, fields: undefined };
  await writeAllItems(paginate(client, path, rest, paging), output, Boolean(options.include));
}

/** Items of every page as one JSON array, streamed; a body that is not an envelope is printed whole. */
async function writeAllItems(pages: AsyncIterable<Page>, output: OutputOptions, include: boolean): Promise<void> {
  const writer = json.listing(genericView([]), output);
  for await (const page of pages) {
    if (include) printHead(output.io, page.status, page.headers);
    if (!isEnvelope(page.body)) {
      const text = JSON.stringify(page.body);
      await output.io.write(`${output.io.stdoutIsTTY ? prettyJson(text, { colors: output.display.colors }) : text}\n`);
      return;
    }
    await writer.write(page.items);
  }
  await writer.end();
}

function printHead(io: IoStreams, status: number, headers: Headers): void {
  let text = `HTTP ${status}\n`;
  for (const [name, value] of Object.entries(headers)) {
    for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) text += `${name}: ${one}\n`;
  }
  io.warn(sanitizeMessage(`${text}\n`));
}
