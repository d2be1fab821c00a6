import type { HelpTopic } from '../topic.js';

export const MIRROR: HelpTopic = {
  name: 'mirror',
  summary: 'the local copy lk sync keeps, and what reads it',
  section: 'THE MIRROR',
  blocks: [
    {
      paragraph:
        '`lk sync` copies the account into one SQLite file, <data folder>/<profile>.db (the data folder is $LK_DATA_DIR, else $XDG_DATA_HOME/lk, else ~/.local/share/lk; --db FILE picks another). It uses the hourly export when the server allows one, else reads only what changed since the last sync; --full reads everything again.',
    },
    { paragraph: 'What reads it, with no key and no request:' },
    {
      items: [
        ['lk search', 'titles, notes and reviews; accents and case ignored'],
        ['lk sql', 'read-only SQL over the mirror (--timeout SECONDS ends a long query)'],
        ['--offline', 'on library, history, lists, reviews, notifications, stats and calendar: the same filters and output as online'],
        ['lk feed, lk report, lk serve', 'an activity feed, the year in review, and both served over HTTP'],
        ['Tab', 'entry and list ids complete from the mirror'],
      ],
    },
    {
      paragraph:
        'The mirror needs Node 22.13 or later (node:sqlite). A sync is one transaction: one killed half-way leaves the previous mirror whole. The file is 0600 in a 0700 folder: it holds your notes and private reviews. A missing mirror is an error naming `lk sync` (exit 1).',
    },
    {
      lines: [
        'lk sync',
        'lk search dune --domain BOOKS',
        'lk sql "SELECT phase, count(*) AS n FROM entries GROUP BY phase"',
        'lk library --offline --phase IN_PROGRESS',
      ],
    },
  ],
};
