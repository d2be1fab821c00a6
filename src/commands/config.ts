import { appriseOnPath } from '../notify/send/apprise.js';
import { parseTargets, splitTargetList } from '../notify/targets.js';
import type { Command } from 'commander';
import { DATA, TEXT } from '../output/shape.js';
import { listing, text, type Listing } from '../output/result.js';
import { pageOf } from '../api/paginate.js';
import { maskKey } from '../util/redact.js';
import { assertSettingName, BUILT_IN_DEFAULTS, SETTINGS, type SettingName, type SettingValue } from '../config/settings.js';
import { configFilePath, readStoredConfig, updateStoredConfig, type StoredConfig } from '../config/store.js';
import type { Context } from '../context.js';
import type { View } from '../output/formats/view.js';
import { addCommand, defineCommand, operand } from './define.js';
import { examples, showDefaultSubcommandOptions } from './help-layout.js';
import { fittedHelp } from './help-layout.js';
import { TERMINAL_ONLY, type Uses } from './uses.js';

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

/** Defaults are global: a profile holds only its instance and key (lk auth login); --profile would suggest otherwise. */
const CONFIG_USES: Uses = {
  ...TERMINAL_ONLY,
  said: {
    profile: {
      message: '{command} changes the defaults of every profile: --profile does not apply',
      hint: 'A profile holds its instance and key: `lk --profile NAME auth login --base-url URL`.',
    },
  },
};

const SETTING_OPERAND = operand('<setting>', Object.keys(SETTINGS).join(', '), { complete: { choices: Object.keys(SETTINGS) } });

/**
 * `lk config` reads the stored file leniently (storedConfig: 'lenient') instead of the usual way, which rejects an
 * invalid stored default: the command that fixes a hand-edited value must work while it is broken.
 */
const listCommand = defineCommand({
  name: 'list',
  uses: TERMINAL_ONLY,
  description: 'every setting with its value and where it comes from; profiles with masked keys',
  output: { ...DATA, jq: [] },
  examples: ['lk config list', "lk config list --json | jq -r '.profiles[].name'"],
  storedConfig: 'lenient',
  run: async (ctx) => list(ctx),
});

const getCommand = defineCommand({
  name: 'get',
  uses: CONFIG_USES,
  description: 'print the stored value of a setting (nothing, exit 0, when it is not set)',
  output: TEXT,
  operands: [SETTING_OPERAND],
  examples: ['lk config get lang', 'lang=$(lk config get lang); echo "${lang:-account default}"'],
  storedConfig: 'lenient',
  async run(ctx, out, _options, [name]) {
    const setting = assertSettingName(name); // a typo exits 2 whether or not anything is stored
    const value = readStoredConfig(ctx.configDir).defaults?.[setting];
    return text(value === undefined ? '' : `${shownValue(setting, value)}\n`);
  },
});

const setCommand = defineCommand({
  name: 'set',
  uses: CONFIG_USES,
  description: 'store a default, checked first (a wrong value is refused with the allowed ones)',
  output: TEXT,
  operands: [
    SETTING_OPERAND,
    // The values of the setting typed before: `lk completion --setting-values NAME`.
    operand('<value>', 'the value (see `lk config --help` for what each setting takes)', {
      complete: { dynamic: { args: ['completion', '--setting-values'], withOperands: true } },
    }),
  ],
  examples: [
    'lk config set lang fr',
    "lk config set format json && lk whoami | jq -r '.account.username'",
    'lk config set base-url https://tracker.example.org',
  ],
  storedConfig: 'lenient',
  async run(ctx, _out, _options, [rawName, raw]) {
    const name = assertSettingName(rawName);
    // The parser refuses a wrong value naming the allowed ones (exit 2).
    const value = SETTINGS[name].parse(raw);
    // Each notify URL checked as lk notify checks it, so that none stored is refused at every later run.
    if (name === 'notify') parseTargets(splitTargetList(String(value)), appriseOnPath(ctx.env));
    await updateStoredConfig(ctx.configDir, (config) => {
      config.defaults = { ...config.defaults, [name]: value };
    });
    ctx.io.info(`${name} = ${shownValue(name, value)} (in ${configFilePath(ctx.configDir)})`);
  },
});

const unsetCommand = defineCommand({
  name: 'unset',
  uses: CONFIG_USES,
  description: 'forget a stored default (the built-in one applies again)',
  output: TEXT,
  operands: [SETTING_OPERAND],
  examples: [
    'lk config unset format',
    "lk config unset lang     # film and series titles in the account's language again",
    "lk config list --tsv | awk -F'\\t' '$3 == \"config\" {print $1}' | xargs -n1 lk config unset",
  ],
  storedConfig: 'lenient',
  async run(ctx, _out, _options, [rawName]) {
    const name = assertSettingName(rawName);
    await updateStoredConfig(ctx.configDir, (config) => {
      if (config.defaults) delete config.defaults[name];
    });
    ctx.io.info(`${name} unset (built-in default: ${BUILT_IN_DEFAULTS[name].text})`);
  },
});

export function registerConfig(program: Command): void {
  const config = program
    .command('config')
    .description(`stored defaults: ${Object.keys(SETTINGS).join(', ')} (flags and environment still win)`)
    .addHelpText(
      'after',
      fittedHelp(`
Settings:
${Object.entries(SETTINGS)
  .map(([name, spec]) => `  ${name.padEnd(10)} ${spec.describe} (${spec.allowed})`)
  .join('\n')}

Precedence, highest first: flag, environment, the profile's instance and key (lk auth login), lk config default,
built-in default. Defaults apply to every profile: --profile is refused by get, set and unset.
${examples('lk config set format json', 'lk config get lang', "lk config list --json | jq '.settings.lang'")}`),
    );
  showDefaultSubcommandOptions(config, addCommand(config, listCommand, { isDefault: true }));
  addCommand(config, getCommand);
  addCommand(config, setCommand);
  addCommand(config, unsetCommand);
}

/** A setting's value as lk config shows it: a secret one (notify's URLs) masked, never whole. */
function shownValue(name: SettingName, value: SettingValue): string {
  const shown = SETTINGS[name].shown;
  return shown ? shown(value) : String(value);
}

/** A stored default and whether it passes its setting's validation (shown as lk config shows it). */
function checked(stored: StoredConfig, name: SettingName): { value: SettingValue; problem?: string } | undefined {
  const raw = stored.defaults?.[name];
  if (raw === undefined) return undefined;
  const value = SETTINGS[name].shown ? shownValue(name, raw) : raw;
  try {
    SETTINGS[name].parse(String(raw));
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

/**
 * The settings as rows in every format, or with --json by name together with the profiles; in a table the profiles
 * follow the settings (they are for a person reading it: scripts get them from --json).
 */
function list(ctx: Context): Listing {
  const stored = readStoredConfig(ctx.configDir);
  const settings = settingRows(stored);
  const profiles = profileRows(stored);
  const json = () => ({ settings: Object.fromEntries(settings.map(({ setting, ...rest }) => [setting, rest])), profiles });
  const tablesAfter = profiles.length > 0 ? [listing(pageOf(profiles), profileView, false)] : [];
  return listing(pageOf(settings), settingView, false, { json, tablesAfter });
}
