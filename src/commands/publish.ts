import type { Command } from 'commander';
import { resolve } from 'node:path';
import type { Context } from '../context.js';
import { loadSqlite } from '../mirror/open.js';
import { text, type Text } from '../output/result.js';
import type { OutputSession } from '../output/session.js';
import { TEXT } from '../output/shape.js';
import { siteFiles } from '../publish/site.js';
import { checkPublishFolder, publishInto } from '../publish/write.js';
import type { PublishedLists } from '../readings/projection.js';
import { UsageError } from '../util/errors.js';
import { formatCount } from '../util/units.js';
import { addCommand, defineCommand, operand } from './define.js';
import { entityId } from './flag-values.js';
import { flag, type OptionsOf } from './flags.js';
import { DB_FLAG } from './options.js';
import { commandHost } from './readings.js';
import { runSync } from './sync.js';
import { PROFILE, REQUESTS } from './uses.js';

const PUBLISH_FLAGS = {
  lists: flag.parsed('--lists <which>', 'the lists published: public (default: those the API marks public), all, none, or ids (3,7)', listsOf),
  title: flag.text('--title <text>', "the site's name (default: the account's display name)"),
  sync: flag.toggle('--sync', 'bring the mirror up to date first (lk sync)'),
  ...DB_FLAG,
};

/** `lk publish DIR`: a static site of the account, from the mirror, for anyone to read. */
const publishCommand = defineCommand({
  name: 'publish',
  // --base-url is the site's address here (as the command-line contract names it), never the instance: with --sync,
  // the profile's or LK_BASE_URL is.
  uses: {
    flags: [...PROFILE.flags, 'baseUrl'],
    when: { option: 'sync', flags: REQUESTS.flags.filter((name) => name !== 'baseUrl') },
    said: {
      baseUrl: {
        message: "--base-url (the site's address in lk publish) does not go with --sync",
        hint: "--sync asks the profile's instance (or LK_BASE_URL): run lk sync first, then {command} --base-url URL.",
      },
    },
  },
  description: 'write a static site of your library into DIR, from the mirror: only what anyone may see',
  output: TEXT,
  flags: PUBLISH_FLAGS,
  operands: [operand('<dir>', 'the folder to write the site into (new, empty, or one lk publish wrote)')],
  help: `
--base-url URL is where the site will be served (https://me.example.org/media/): the feeds' links are made absolute
with it. (Here it names the site, not the instance: it does not go with --sync.)
The site: index.html (who, what is in progress, recent activity, the library by domain), diary.html (dated history,
newest first, then diary-2.html…), lists.html and lists/ID.html (the lists published), years.html and year/YYYY.html
(each year in review, the page lk report makes), feed.atom and feed.json (lk feed --public), and the cards.
Only the public projection, as lk serve shows it: no notes, no text of a private or spoiler review, no list but those
published. Relative links only, nothing loaded from another host: it works from any static host, any sub-path and a
folder opened from file://. The same mirror and flags give the same bytes, and a file whose bytes are already there
is left untouched (a git-backed site commits only what changed); files a previous run wrote and this one did not are
removed, nothing else. Prints the files written.
`,
  examples: [
    'lk publish ~/site',
    'lk publish public --lists all --title "What I watch" --base-url https://me.example.org/',
    '15 6 * * *  LK_API_KEY_FILE=$HOME/.config/lk/key /usr/local/bin/lk publish -q --sync /var/www/media',
  ],
  run: runPublish,
});

export function registerPublish(program: Command): void {
  addCommand(program, publishCommand);
}

async function runPublish(ctx: Context, _out: OutputSession, options: OptionsOf<typeof PUBLISH_FLAGS>, [dir]: [string]): Promise<Text> {
  // Everything checked before the mirror is opened: the folder, then node:sqlite.
  if (dir === '') throw new UsageError('DIR needs a path');
  const target = resolve(dir);
  const baseUrl = ctx.flags.baseUrl === undefined ? undefined : siteUrl('--base-url', ctx.flags.baseUrl);
  checkPublishFolder(target);
  loadSqlite('lk publish');
  if (options.sync) await runSync(ctx, { db: options.db });
  const host = commandHost(ctx, { db: options.db, what: 'lk publish', audience: 'public', lists: options.lists ?? 'public' });
  const published = await publishInto(target, siteFiles(host, { title: options.title, baseUrl }));
  const lines = published.written.map((name) => `${dir.replace(/\/+$/, '')}/${name}`);
  const unchanged = published.unchanged > 0 ? `, ${formatCount(published.unchanged)} unchanged` : '';
  const removed = published.removed.length > 0 ? `, ${formatCount(published.removed.length)} removed` : '';
  ctx.io.info(`lk: published ${dir}: ${formatCount(published.written.length)} written${unchanged}${removed}`);
  return text(lines.length === 0 ? '' : `${lines.join('\n')}\n`);
}

/** --lists: public, all, none, or list ids separated by commas (each a valid id). */
function listsOf(name: string, raw: string): PublishedLists {
  const word = raw.trim().toLowerCase();
  if (word === 'public' || word === 'all' || word === 'none') return word;
  const ids = raw.split(',').map((id) => id.trim());
  const valid = (id: string) => {
    try {
      return entityId('list', id) === id;
    } catch {
      return false;
    }
  };
  if (!ids.every(valid)) throw new UsageError(`invalid ${name} "${raw}": expected public, all, none or list ids such as 3,7`);
  return ids;
}

/** --base-url: an absolute http(s) address, ending in / (the folder the site is served from). */
function siteUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`invalid ${name} "${raw}": expected an address such as https://me.example.org/media/`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`invalid ${name} "${raw}": expected an http or https address`);
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}
