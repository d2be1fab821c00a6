import type { HelpTopic } from '../topic.js';

export const DATES: HelpTopic = {
  name: 'dates',
  summary: 'the dates and durations flags take (--from, --max-age)',
  section: 'DATES',
  blocks: [
    { paragraph: 'Flags that take a date (--from, --to, --since) accept:' },
    {
      items: [
        ['2026-01-31', 'a day (UTC, as the API reads it)'],
        ['2026-01-31T10:00:00Z', 'an ISO 8601 date-time with a zone (Z or +01:00)'],
        ['2026-01-31T10:00', 'a date-time without a zone: your local time'],
        ['today, yesterday', 'a whole local day: from its first moment for --from, to its last for --to'],
        ['12h, 7d, 2w', 'that long ago'],
      ],
    },
    {
      paragraph:
        'Durations (--max-age, --sync-every) are a number and a unit: 45s, 30m, 6h, 2d, 1w. A bad date or duration is refused before any request (exit 2), naming the flag and the forms it takes.',
    },
    { lines: ['lk history --from 7d', 'lk history --from 2026-01-01 --to today', 'lk export --max-age 6h'] },
  ],
};
