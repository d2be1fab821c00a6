import type { Command } from 'commander';
import { TEXT } from '../output/shape.js';
import { text, type Text } from '../output/result.js';
import type { Context } from '../context.js';
import { LkError, UsageError } from '../util/errors.js';
import { ownPageOf, workPageOf } from '../items/page.js';
import { linkableUrl } from '../output/terminal/hyperlinks.js';
import { sanitizeText } from '../output/terminal/sanitize.js';
import type { OutputSession } from '../output/session.js';
import { addCommand, defineCommand, operand } from './define.js';
import { flag, type OptionsOf } from './flags.js';
import { ENTRY_IDS } from '../completion/model.js';
import { entityId } from './flag-values.js';
import { pathOf } from '../api/endpoints.js';
import { REQUESTS } from './uses.js';
import { browserFor, openInBrowser } from '../output/terminal/browser.js';

const OPEN_FLAGS = {
  work: flag.toggle('--work', "the page of the entry's work instead of the entry's own"),
  list: flag.text('--list <id>', 'the page of this list instead'),
  profilePage: flag.toggle('--profile-page', 'your profile page instead'),
  browser: flag.negated('-n, --no-browser', 'print the URL, do not open it'),
};

/** `lk open [ID]`: the web app's page of an entry, a list or the profile. */
const openCommand = defineCommand({
  name: 'open',
  uses: REQUESTS,
  description: "open an entry's page in the web app in your browser (BROWSER), or print its URL",
  output: TEXT,
  operands: [operand('[id]', 'entry id (the ID column of `lk library`)', { complete: { dynamic: ENTRY_IDS } })],
  flags: OPEN_FLAGS,
  help: `
Opens BROWSER when it is set, else xdg-open (open on macOS). Prints the URL
instead where no browser can be opened: stdout not a terminal (a pipe, cron,
$(…)), an ssh session, or no display.
`,
  examples: ['lk open 42', 'lk open --list l7', 'lk open 42 --work -n | xclip', 'BROWSER=firefox lk open --profile-page'],
  run: (ctx, out, options, [id]) => run(ctx, out, options, id),
});

export function registerOpen(program: Command): void {
  addCommand(program, openCommand);
}

async function run(ctx: Context, out: OutputSession, options: OptionsOf<typeof OPEN_FLAGS>, rawId: string | undefined): Promise<Text | void> {
  const targets = [rawId !== undefined, options.list !== undefined, Boolean(options.profilePage)].filter(Boolean).length;
  if (targets !== 1)
    throw new UsageError(
      targets === 0 ? 'what to open? give an entry id, --list ID or --profile-page' : 'open one page: an entry id, --list ID or --profile-page',
    );
  if (options.work && rawId === undefined) throw new UsageError('--work goes with an entry id');
  const { path, field, what } =
    rawId !== undefined
      ? { path: pathOf('entry', entityId('entry', rawId)), field: options.work ? 'work.url' : 'url', what: `library entry ${rawId}` }
      : options.list !== undefined
        ? { path: pathOf('list', entityId('list', options.list)), field: 'url', what: `list ${options.list}` }
        : { path: pathOf('profile'), field: 'url', what: 'profile' };
  const client = await ctx.client();
  const body = (await client.get(path, {}, { notFound: what })).json;
  // An entry without a url of its own still has its work's page.
  const url =
    linkableUrl(field === 'work.url' ? workPageOf(body) : ownPageOf(body)) ??
    (field === 'url' && rawId !== undefined ? linkableUrl(workPageOf(body)) : undefined);
  if (!url) throw new LkError(`the ${what} has no web page (no http(s) ${field} in the response)`);
  const browser = options.browser === false ? { print: '--no-browser' } : browserFor(out.io, ctx.env);
  if ('print' in browser) return text(`${url}\n`);
  if (out.io.mayNotify) out.io.info(`Opening ${sanitizeText(url)} in your browser.`);
  await openInBrowser(browser.command, url, ctx.env);
}
