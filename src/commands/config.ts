import type { Command } from 'commander';
import { pageOf } from '../api/paginate.js';
import { maskKey } from '../util/redact.js';
import { configDir } from '../config/paths.js';
import { assertSettingName, BUILT_IN_DEFAULTS, FORMATS, oneOf, SETTINGS, type SettingName, type SettingValue } from '../config/settings.js';
import { configFilePath, readStoredConfig, updateStoredConfig, type StoredConfig } from '../config/store.js';
import type { GlobalOptions } from '../context.js';
import { UsageError } from '../util/errors.js';
import { IoStreams, type ColorMode } from '../output/io.js';
import { renderListing, renderSingle } from '../output/render.js';
import type { View } from '../output/view.js';
import type { OutputFormat, OutputOptions } from '../output/writer.js';
import { factoryOf } from './action.js';
import { completeOperandOf, examples, showDefaultSubcommandOptions, addDefaultSubcommand } from './options.js';

/** One setting as `config list` shows it: never a key (those live in profiles, shown masked). */
interface SettingRow {
  setting: SettingName;
  value: SettingValue | null;
  source: 'config' | 'default';
  /** Set when the stored value fails validation (a hand-edited file), so that it can be seen and fixed. */
  problem?: string;
  allowed: string;
}

interface ProfileRow {
  name: string;
  baseUrl: string | null;
  key: string | null;
  account: string | null;
}

const settingView: View = {
  noun: ['setting', 'settings'],
  columns: [
    { header: 'Setting', path: 'setting' },
    {
      header: 'Value',
      path: 'value',
      display: (row) => {
        const { setting, value, source, problem } = row as SettingRow;
        if (problem) return `${String(value)} (invalid)`;
        return source === 'default' ? BUILT_IN_DEFAULTS[setting].text : String(value);
      },
      paint: (text, row, colors) =>
        (row as SettingRow).problem ? colors.red(text) : (row as SettingRow).source === 'default' ? colors.dim(text) : text,
    },
    { header: 'Source', path: 'source', dim: true },
    { header: 'Allowed', path: 'allowed', dim: true, flex: true },
  ],
};

const profileView: View = {
  noun: ['profile', 'profiles'],
  columns: [
    { header: 'Profile', path: 'name' },
    { header: 'Base URL', path: 'baseUrl', flex: true },
    { header: 'Key', path: 'key' },
    { header: 'Account', path: 'account', dim: true },
  ],
};

export function registerConfig(program: Command): void {
  const config = program
    .command('config')
    .description(`stored defaults: ${Object.keys(SETTINGS).join(', ')} (flags and environment still win)`)
    .addHelpText(
      'after',
      `
Settings:
${Object.entries(SETTINGS)
  .map(([name, spec]) => `  ${name.padEnd(10)} ${spec.describe} (${spec.allowed})`)
  .join('\n')}

Precedence, highest first: flag, environment, the profile's instance and key (lk auth login), lk config default,
built-in default. Defaults apply to every profile: --profile is refused by get, set and unset.
${examples('lk config set format json', 'lk config get lang', "lk config list --json | jq '.settings.lang'")}`,
    );

  const listCommand = addDefaultSubcommand(config, 'list')
    .description('every setting with its value and where it comes from; profiles with masked keys')
    .addHelpText('after', examples('lk config list', "lk config list --json | jq -r '.profiles[].name'"))
    .action(configAction(async (run) => list(run)));
  showDefaultSubcommandOptions(config, listCommand);

  completeOperandOf(
    config
      .command('get')
      .description('print the stored value of a setting (nothing, exit 0, when it is not set)')
      .argument('<setting>', Object.keys(SETTINGS).join(', ')),
    0,
    { choices: Object.keys(SETTINGS) },
  )
    .addHelpText('after', examples('lk config get lang', 'lang=$(lk config get lang); echo "${lang:-account default}"'))
    .action(
      configAction(async (run, [name]) => {
        const setting = assertSettingName(name!); // a typo exits 2 whether or not anything is stored
        const value = run.stored.defaults?.[setting];
        if (value !== undefined) await run.io.write(`${String(value)}\n`);
      }),
    );

  const set = config
    .command('set')
    .description('store a default, checked first (a wrong value is refused with the allowed ones)')
    .argument('<setting>', Object.keys(SETTINGS).join(', '))
    .argument('<value>', 'the value (see `lk config --help` for what each setting takes)');
  completeOperandOf(set, 0, { choices: Object.keys(SETTINGS) });
  // The values of the setting typed before: `lk completion --setting-values NAME`.
  completeOperandOf(set, 1, { dynamic: { args: ['completion', '--setting-values'], withOperands: true } });
  set
    .addHelpText(
      'after',
      examples(
        'lk config set lang fr',
        "lk config set format json && lk whoami | jq -r '.account.username'",
        'lk config set base-url https://tracker.example.org',
      ),
    )
    .action(
      configAction(async (run, [rawName, raw]) => {
        const name = assertSettingName(rawName!);
        // The parser refuses a wrong value naming the allowed ones (exit 2).
        const value = SETTINGS[name].parse(raw!);
        await updateStoredConfig(run.dir, (config) => {
          config.defaults = { ...config.defaults, [name]: value };
        });
        run.io.info(`${name} = ${String(value)} (in ${configFilePath(run.dir)})`);
      }),
    );

  completeOperandOf(
    config
      .command('unset')
      .description('forget a stored default (the built-in one applies again)')
      .argument('<setting>', Object.keys(SETTINGS).join(', ')),
    0,
    { choices: Object.keys(SETTINGS) },
  )
    .addHelpText(
      'after',
      examples(
        'lk config unset format',
        "lk config unset lang     # film and series titles in the account's language again",
        'lk config list --json | jq -r \'.settings | to_entries[] | select(.value.source == "config") | .key\' | xargs -n1 lk config unset',
      ),
    )
    .action(
      configAction(async (run, [rawName]) => {
        const name = assertSettingName(rawName!);
        await updateStoredConfig(run.dir, (config) => {
          if (config.defaults) delete config.defaults[name];
        });
        run.io.info(`${name} unset (built-in default: ${BUILT_IN_DEFAULTS[name].text})`);
      }),
    );
}

interface ConfigRun {
  io: IoStreams;
  dir: string;
  stored: StoredConfig;
  options: GlobalOptions;
  now: number;
}

/**
 * `lk config` reads the stored file leniently instead of through the usual context, which rejects an invalid stored
 * default: the command that fixes a hand-edited value must work while it is broken.
 */
function configAction(run: (config: ConfigRun, operands: string[]) => Promise<void>): (this: Command) => Promise<void> {
  return async function (this: Command) {
    const options = this.optsWithGlobals() as GlobalOptions;
    // Defaults are global: a profile holds only its instance and key (lk auth login). Saying --profile here would
    // suggest a profile-scoped setting that lk does not have.
    if (this.name() !== 'list' && this.getOptionValueSourceWithGlobals('profile') === 'cli') {
      throw new UsageError(
        `lk config ${this.name()} changes the defaults of every profile: --profile does not apply`,
        'A profile holds its instance and key: `lk --profile NAME auth login --base-url URL`.',
      );
    }
    const factory = factoryOf(this);
    const dir = configDir(factory.env);
    const stored = readStoredConfig(dir);
    const color = checked(stored, 'color');
    const io = new IoStreams({
      stdout: factory.stdout,
      stderr: factory.stderr,
      stdin: factory.stdin,
      env: factory.env,
      quiet: options.quiet,
      noColorFlag: options.color === false,
      color: color && !color.problem ? (color.value as ColorMode) : undefined,
    });
    await run({ io, dir, stored, options, now: factory.now() }, this.processedArgs as string[]);
  };
}

/** A stored default and whether it passes its setting's validation. */
function checked(stored: StoredConfig, name: SettingName): { value: SettingValue; problem?: string } | undefined {
  const value = stored.defaults?.[name];
  if (value === undefined) return undefined;
  try {
    SETTINGS[name].parse(String(value));
    return { value };
  } catch (error) {
    return { value, problem: (error as Error).message };
  }
}

export function settingRows(stored: StoredConfig): SettingRow[] {
  return (Object.keys(SETTINGS) as SettingName[]).map((setting) => {
    const found = checked(stored, setting);
    const allowed = SETTINGS[setting].allowed;
    if (!found) return { setting, value: BUILT_IN_DEFAULTS[setting].value, source: 'default', allowed };
    return { setting, value: found.value, source: 'config', allowed, ...(found.problem ? { problem: found.problem } : {}) };
  });
}

/** Profiles hold keys: only the name, instance, masked key and account ever leave this function. */
export function profileRows(stored: StoredConfig): ProfileRow[] {
  return Object.entries(stored.profiles ?? {}).map(([name, profile]) => ({
    name,
    baseUrl: profile.baseUrl ?? null,
    key: profile.key ? maskKey(profile.key) : null,
    account: profile.account ?? null,
  }));
}

async function list(run: ConfigRun): Promise<void> {
  const output = await listOutput(run);
  const settings = settingRows(run.stored);
  const profiles = profileRows(run.stored);
  if (output.format === 'json') {
    const keyed = Object.fromEntries(settings.map(({ setting, ...rest }) => [setting, rest]));
    await renderSingle({ settings: keyed, profiles }, undefined, output);
    return;
  }
  await renderListing(pageOf(settings), settingView, output, { paged: false });
  // Profiles are for a person reading the table; scripts get them from --json.
  if (output.format === 'table' && profiles.length > 0) {
    await run.io.write('\n');
    await renderListing(pageOf(profiles), profileView, output, { paged: false });
  }
}

/** The output format from flags only: a stored `format` default may be the broken value being looked at. */
async function listOutput({ io, options, now }: ConfigRun): Promise<OutputOptions> {
  const named = (['json', 'ndjson', 'csv', 'tsv'] as const).filter((name) => options[name]);
  if (named.length > 1) throw new UsageError(`choose one output format, not ${named.map((n) => `--${n}`).join(' and ')}`);
  const format = (named[0] ?? (options.format === undefined ? undefined : oneOf('format', options.format, FORMATS))) as OutputFormat | undefined;
  const { default: pc } = await import('picocolors');
  return {
    format: format ?? (io.stdoutIsTTY ? 'table' : 'plain'),
    fields: options.fields
      ?.split(',')
      .map((field) => field.trim())
      .filter(Boolean),
    header: options.header !== false,
    csvSafe: false,
    io,
    display: { now, colors: pc.createColors(io.colorEnabled) },
  };
}
