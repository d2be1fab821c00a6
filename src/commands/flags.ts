import { Option } from 'commander';
import { choiceOption } from './choices.js';
import { dateValue, duration, type DateValue } from './flag-values.js';
import { wholeNumber } from '../util/whole-number.js';
import type { Edge } from '../util/relative-date.js';

/** A flag as declared: a fresh commander Option for each command that takes it, and the type its value has. */
export interface Flag<T> {
  readonly option: () => Option;
  /** Never set: carries the value's type to OptionsOf. */
  readonly type?: T;
}

export type Flags = Record<string, Flag<unknown>>;

/** The options a run receives, typed from its flags. */
export type OptionsOf<F extends Flags> = { [K in keyof F]: F[K] extends Flag<infer T> ? T : never };

export const flag = {
  /** `--name <value>`: the text typed, or undefined. */
  text: (spec: `${string}<${string}>`, description: string): Flag<string | undefined> => ({ option: () => new Option(spec, description) }),
  /** `--name`: true when given. */
  toggle: (spec: string, description: string): Flag<boolean | undefined> => ({ option: () => new Option(spec, description) }),
  /** `--no-name`: false when given, else true. */
  negated: (spec: `${string}--no-${string}`, description: string): Flag<boolean> => ({ option: () => new Option(spec, description) }),
  /** `--name <value>` from a fixed set, in any case, handed on as spelt in the set (choices.ts). */
  choice: <const C extends readonly string[]>(spec: `${string}<${string}>`, description: string, choices: C): Flag<C[number] | undefined> => ({
    option: () => choiceOption(spec, description, choices),
  }),
  /** `--name <n>`: a whole number from `min` (to `max`), checked as the line is parsed (./flag-values.ts). */
  count: (spec: `${string}<${string}>`, description: string, min: number, max?: number): Flag<number | undefined> => ({
    option: () => parsed(spec, description, (name, raw) => wholeNumber(name, raw, min, max)),
  }),
  /** `--name <duration>`: 30m, 6h, 2d…, as milliseconds. */
  duration: (spec: `${string}<${string}>`, description: string): Flag<number | undefined> => ({
    option: () => parsed(spec, description, duration),
  }),
  /** `--name <date>`: a day, a moment or 7d, today…, its form checked at once and its moment read at the run's time. */
  date: (spec: `${string}<${string}>`, description: string, edge: Edge): Flag<DateValue | undefined> => ({
    option: () => parsed(spec, description, (name, raw) => dateValue(name, raw, edge)),
  }),
  /** `--name <value>` parsed by `parse(name, raw)` as the line is read: it throws a UsageError for a bad value. */
  parsed: <T>(spec: `${string}<${string}>`, description: string, parse: (name: string, raw: string) => T): Flag<T | undefined> => ({
    option: () => parsed(spec, description, parse),
  }),
  /** Anything commander's Option can say (a parser, hidden from help, an environment variable): its type stated once here. */
  custom: <T>(option: () => Option): Flag<T> => ({ option }),
};

/**
 * An option whose value is parsed as commander reads the line. The parser's UsageError is not commander's
 * InvalidArgumentError, so it reaches reportError as it is: the same one-line message and exit 2 as before.
 */
function parsed<T>(spec: string, description: string, parse: (name: string, raw: string) => T): Option {
  const option = new Option(spec, description);
  return option.argParser((raw: string) => parse(option.long ?? option.name(), raw));
}
