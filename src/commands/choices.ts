import { InvalidArgumentError, Option } from 'commander';
import { canonicalChoice } from '../util/choice.js';

/**
 * An option with a fixed set of values, accepted in any case (`--phase done`, `--lang EN`) and handed on as the spec
 * spells it. The choices stay on the option (commander's argChoices), so --help and the completion scripts list them;
 * anything else is the usage error commander gives for choices, exit 2.
 */
export function choiceOption(flags: string, description: string, allowed: readonly string[]): Option {
  const option = new Option(flags, description).choices(allowed);
  return option.argParser((raw: string) => {
    const value = canonicalChoice(raw, allowed);
    if (value === undefined) throw new InvalidArgumentError(`Allowed choices are ${allowed.join(', ')}.`);
    return value;
  });
}
