import type { RunFlags } from '../context.js';

/**
 * The global flags that are not about the output (those are OutputShape's): where a run connects, how its client
 * waits, and how the terminal behaves. Each command declares which it honours (`uses` in its definition); the
 * wrapper refuses the others before run, in one line naming the flag and the command (exit 2), as it does for the
 * output flags. Keyed as RunFlags, with the words a person typed.
 */
const RUN_FLAGS = {
  profile: '--profile',
  baseUrl: '--base-url',
  lang: '--lang',
  cache: '--cache',
  timeout: '--timeout',
  maxWait: '--max-wait',
  wait: '--no-wait',
  cacert: '--cacert',
  verbose: '--verbose',
  color: '--no-color',
  pager: '--no-pager',
  quiet: '--quiet',
} as const satisfies Partial<Record<keyof RunFlags, string>>;

export type RunFlag = keyof typeof RUN_FLAGS;

/**
 * What every command honours: --no-color (the `lk:` lines on stderr are painted too), --no-pager (anything on stdout
 * may page; a server or the MCP stdio never pages, which is what it asks) and --quiet (notes and progress on stderr).
 */
const TERMINAL: readonly RunFlag[] = ['color', 'pager', 'quiet'];
/** What only a run that sends requests can honour: the instance, the client's waits, its cache, TLS and -v's lines. */
const CONNECTION: readonly RunFlag[] = ['profile', 'baseUrl', 'cache', 'timeout', 'maxWait', 'wait', 'cacert', 'verbose'];

/** A command's declaration: the flags a run honours, and a toggle of its own that changes them. */
export interface Uses {
  readonly flags: readonly RunFlag[];
  /** With the command's own flag `option` given (--offline, lk mcp --live), a run honours `flags` instead. */
  readonly when?: { readonly option: string; readonly flags: readonly RunFlag[] };
  /** What to do instead, said in brackets after a refusal. */
  readonly instead?: Partial<Record<RunFlag, string>>;
  /** The refusal in the command's own words, and a hint (`{command}` is its path): one older than the declaration. */
  readonly said?: Partial<Record<RunFlag, { readonly message: string; readonly hint?: string }>>;
}

const without = (flags: readonly RunFlag[], ...left: RunFlag[]) => flags.filter((name) => !left.includes(name));

/** Sends requests and shows film and series titles: every flag (the default of a command without --offline). */
export const TITLES: Uses = { flags: [...CONNECTION, 'lang', ...TERMINAL] };
/** Sends requests, shows no title that --lang would change. */
export const REQUESTS: Uses = { flags: [...CONNECTION, ...TERMINAL] };
/** Reads local files of the profile (the mirror, the key, the config): --profile and the terminal's flags. */
export const PROFILE: Uses = { flags: ['profile', ...TERMINAL] };
/** Reads nothing of the profile and sends nothing: the terminal's flags only. */
export const TERMINAL_ONLY: Uses = { flags: TERMINAL };

/** A listing with --offline (the default where a command has that flag): every flag online; the mirror of the profile offline, its titles checked against --lang. */
export const TITLES_OR_MIRROR: Uses = { ...TITLES, when: { option: 'offline', flags: [...PROFILE.flags, 'lang'] } };
/** --offline on a command whose mirror reading has no title --lang would check (stats, notifications). */
export function orMirror(online: Uses): Uses {
  return { ...online, when: { option: 'offline', flags: PROFILE.flags } };
}

/** `uses` with some flags left out, each with what to do instead. */
export function except(uses: Uses, instead: Partial<Record<RunFlag, string>>): Uses {
  return { ...uses, flags: without(uses.flags, ...(Object.keys(instead) as RunFlag[])), instead: { ...uses.instead, ...instead } };
}

/** `uses` with flags added (lk sql's query bounded by --timeout, lk search's titles checked against --lang). */
export function plus(uses: Uses, ...flags: RunFlag[]): Uses {
  return { ...uses, flags: [...uses.flags, ...flags] };
}

/** Whether a run flag was typed (the environment's LK_PROFILE and LK_BASE_URL are not flags: define.ts drops them). */
function given(flags: RunFlags, name: RunFlag): boolean {
  const value = flags[name];
  if (name === 'wait' || name === 'color' || name === 'pager') return value === false;
  if (name === 'verbose' || name === 'quiet') return value === true;
  return value !== undefined;
}

/**
 * The one line refusing the first run flag `uses` does not take (undefined when all fit). `options` are the command's
 * own, for `when`; `command` its path as help names it (`lk library`).
 */
export function unfitRunFlag(
  uses: Uses,
  flags: RunFlags,
  options: Record<string, unknown>,
  command: string,
): { message: string; hint?: string | undefined } | undefined {
  const toggled = uses.when && optionGiven(options, uses.when.option) ? uses.when : undefined;
  const honoured = toggled ? toggled.flags : uses.flags;
  const unfit = (Object.keys(RUN_FLAGS) as RunFlag[]).find((name) => given(flags, name) && !honoured.includes(name));
  if (!unfit) return undefined;
  const said = uses.said?.[unfit];
  if (said) return { message: said.message.replace('{command}', command), hint: said.hint };
  const where = toggled ? `${command} ${optionWords(toggled.option)}` : command;
  const why = uses.instead?.[unfit] ?? reason(unfit, honoured, toggled ? undefined : uses.when);
  return { message: `${RUN_FLAGS[unfit]} does not apply to ${where}${why ? ` (${why})` : ''}` };
}

/** Why a run does not honour a flag, when it says so: no request sent (unless with its own flag), no title shown, no profile read. */
function reason(unfit: RunFlag, honoured: readonly RunFlag[], other: Uses['when']): string | undefined {
  if (unfit === 'lang') return 'it shows no film or series title';
  if (unfit === 'profile') return 'it reads no profile';
  if (!CONNECTION.includes(unfit) || honoured.includes('baseUrl')) return undefined;
  return other?.flags.includes(unfit) ? `it sends no request without ${optionWords(other.option)}` : 'it sends no request';
}

/** Whether a command's own flag was given (a value, or a toggle set): it changes what the run honours or prints. */
export function optionGiven(options: Record<string, unknown>, option: string): boolean {
  return options[option] !== undefined && options[option] !== false;
}

/** A command's own flag as typed: `--sync-every` for syncEvery. */
export function optionWords(option: string): string {
  return `--${option.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/** Reads the mirror (`local`); with its own `option` (lk feed --sync, lk serve --sync-every, lk mcp --live) it sends requests too. */
export function mirrorOr(option: string, local: Uses = PROFILE): Uses {
  return { ...local, when: { option, flags: [...new Set([...REQUESTS.flags, ...local.flags])] } };
}
