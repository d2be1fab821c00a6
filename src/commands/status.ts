import type { Command } from 'commander';
import type { Context } from '../context.js';
import { resource, text, type Resource, type Text } from '../output/result.js';
import type { OutputSession } from '../output/session.js';
import { SCREEN } from '../output/shape.js';
import type { OutputOptions } from '../output/formats/writer.js';
import { addCommand, defineCommand } from './define.js';
import { flag, type OptionsOf } from './flags.js';
import { OFFLINE_FLAGS, OUTPUT_FLAG } from './options.js';
import { commandHost, readingCommand } from './readings.js';
import { statusReading } from '../readings/composed.js';
import { READINGS } from '../readings/table.js';
import { statusScreen } from '../output/wording/status-text.js';
import schema from '../../schemas/status.schema.json' with { type: 'json' };

const STATUS_FLAGS = {
  jsonSchema: flag.toggle('--json-schema', 'print the JSON Schema of the --json object (schemas/status.schema.json) and exit'),
  ...OFFLINE_FLAGS,
  ...OUTPUT_FLAG,
};

/** `lk status`: what is going on, in one screen (or one object for dashboards). */
const statusCommand = defineCommand({
  name: 'status',
  description: 'what is going on, in one screen: in progress, activity, airing this week, notifications, the mirror',
  output: SCREEN,
  flags: STATUS_FLAGS,
  help: `
Activity counts dated history events in the last 7 and 30 days (7 × 24 and 30 × 24 hours up to now) and since
1 January in your time zone (TZ, else this machine's). --json prints one object for dashboards and scripts, stable
within its schemaVersion (1): its JSON Schema is schemas/status.schema.json in the package, printed by --json-schema.
--fields and --jq pick from that object. Online it costs about seven requests; --offline answers from the mirror
(lk sync) with none, and its generatedAt is the mirror's last sync (the same mirror, the same object).
`,
  examples: [
    'lk status',
    'lk status --offline',
    "lk status --json | jq '.activity.last7Days'",
    '*/15 * * * *  lk status -q --json -o ~/www/lk-status.json',
  ],
  run: runStatus,
});

export function registerStatus(program: Command): void {
  addCommand(program, statusCommand);
}

async function runStatus(ctx: Context, out: OutputSession, options: OptionsOf<typeof STATUS_FLAGS>): Promise<Resource | Text> {
  if (options.jsonSchema) {
    return text(`${JSON.stringify(schema, null, 2)}\n`);
  }
  const offline = Boolean(options.offline);
  const host = commandHost(ctx, { db: options.db, what: readingCommand(READINGS.status, offline) });
  const read = () => statusReading(host, { offline });
  const screen = async (status: unknown, output: OutputOptions) => {
    return statusScreen(status as Parameters<typeof statusScreen>[0], output.display, output.io.columns);
  };
  return resource(read, { screen });
}
