import type { HelpTopic } from './topic.js';
import { DATES } from './topics/dates.js';
import { ENVIRONMENT } from './topics/environment.js';
import { EXIT_CODES } from './topics/exit-codes.js';
import { FORMATS } from './topics/formats.js';
import { MIRROR } from './topics/mirror.js';

/** Every help topic, in the order `lk help` lists them. */
export const HELP_TOPICS: readonly HelpTopic[] = [FORMATS, ENVIRONMENT, EXIT_CODES, DATES, MIRROR];

export function helpTopic(name: string): HelpTopic | undefined {
  return HELP_TOPICS.find((topic) => topic.name === name);
}
