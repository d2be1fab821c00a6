import type { HelpTopic } from '../topic.js';

export const EXIT_CODES: HelpTopic = {
  name: 'exit-codes',
  summary: 'what each exit status of lk means',
  section: 'EXIT STATUS',
  blocks: [
    {
      items: [
        ['0', 'success'],
        ['1', 'any other failure: a server error after retries, a network failure, an unexpected response'],
        ['2', 'usage error: an unknown command or flag, a bad value (--lang de, --limit 0, a bad date), caught before any request'],
        ['3', 'not authenticated: no key configured, a malformed key, or 401'],
        ['4', 'forbidden: 403, the key lacks a scope or the account has disabled that domain'],
        ['5', 'rate limited and not retried: --no-wait, a wait beyond --max-wait, the export hour not yet over'],
        ['6', 'not found: 404'],
        ['130', 'interrupted by Ctrl-C (143 for SIGTERM, 129 for SIGHUP)'],
      ],
    },
    {
      paragraph:
        'An error is one line on stderr, `lk: ` and what went wrong, then where it helps a line saying what to do. An alias or an extension ends with the exit status of what it ran.',
    },
  ],
};
