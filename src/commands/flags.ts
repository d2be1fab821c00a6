import { Option } from 'commander';
import { choiceOption } from './choices.js';

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
  /** Anything commander's Option can say (a parser, hidden from help, an environment variable): its type stated once here. */
  custom: <T>(option: () => Option): Flag<T> => ({ option }),
};
