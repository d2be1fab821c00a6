import type { Command } from 'commander';
import { CARD_KINDS, cardSvg, THEMES, type CardKind } from '../card/index.js';
import type { Context } from '../context.js';
import { loadSqlite } from '../mirror/open.js';
import { document, type Document } from '../output/result.js';
import { documentShape } from '../output/shape.js';
import { addCommand, defineCommand, operand } from './define.js';
import { flag, type OptionsOf } from './flags.js';
import { DB_FLAG } from './options.js';
import { commandHost } from './readings.js';
import { runSync } from './sync.js';
import { mirrorOr } from './uses.js';

const CARD_FLAGS = {
  theme: flag.choice('--theme <theme>', 'light (the default), dark, or auto: the viewer’s colour scheme', THEMES),
  output: flag.text('-o, --output <file>', 'write the SVG to this file, whole or not at all (left untouched when unchanged)'),
  sync: flag.toggle('--sync', 'run lk sync first (needs the key), then draw the card'),
  ...DB_FLAG,
};

/** `lk card [KIND]`: one SVG image of the account from the mirror, for a README or a site. */
const cardCommand = defineCommand({
  name: 'card',
  uses: mirrorOr('sync'),
  description: 'an SVG card of your library from the mirror (stats, now, heatmap, year), for a README or a site',
  output: documentShape(['svg'], 'svg'),
  operands: [operand('[kind]', 'stats (the default), now, heatmap or year', { choices: CARD_KINDS })],
  flags: CARD_FLAGS,
  help: `
KIND: stats (entries by domain, finished this year, the average rating), now (what is in progress, up to 5),
heatmap (dated activity of the last 52 weeks, one square a day), year (this year's figures, as lk report).
Each card is one self-contained SVG, 495 px wide and at most 64 KB: no script, no font, image or link to load, a
<title> and <desc> for screen readers. It shows what a public page may show (as lk feed --public and lk serve): no
note, no text of a private or spoiler review, no list. "Today" is the mirror's last sync that changed it, so the same
mirror gives the same bytes, and a file that already holds them is left untouched (a git-backed README commits only
real changes). lk serve answers the same cards at /card/KIND.svg. Regenerating them from cron or a GitHub Actions
workflow: docs/cards.md.
`,
  examples: [
    'lk card -o stats.svg',
    'lk card heatmap --theme auto -o heatmap.svg',
    'lk card now --theme dark > now.svg',
    '15 6 * * *  LK_API_KEY_FILE=$HOME/.config/lk/key /usr/local/bin/lk card heatmap -q --sync --theme auto -o $HOME/site/heatmap.svg',
  ],
  run: (ctx, _out, options, [kind]) => runCard(ctx, options, kind ?? 'stats'),
});

export function registerCard(program: Command): void {
  addCommand(program, cardCommand);
}

async function runCard(ctx: Context, options: OptionsOf<typeof CARD_FLAGS>, kind: CardKind): Promise<Document> {
  loadSqlite('lk card');
  return document({
    format: 'svg',
    async make() {
      if (options.sync) await runSync(ctx, { db: options.db });
      // Always the public projection: a card is made to be shown to anyone.
      const host = commandHost(ctx, { db: options.db, what: 'lk card', audience: 'public' });
      return { data: await cardSvg(host, kind, options.theme ?? 'light'), keepIdentical: true };
    },
  });
}
