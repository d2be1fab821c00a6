import type { HelpTopic } from '../topic.js';

export const FORMATS: HelpTopic = {
  name: 'formats',
  summary: 'the formats --format names, and --fields, --jq',
  section: 'FORMATS',
  blocks: [
    {
      paragraph:
        'Listings and single resources are written in any of five formats, chosen with --format NAME (or --json, or a default stored with `lk config set format NAME`):',
    },
    {
      items: [
        ['table', 'columns for a person: shortened, localised and coloured; the default on a terminal'],
        ['json', 'an array of the items of a listing (all of them with --all), the object itself for a single resource'],
        ['ndjson', 'one JSON item per line, written as pages arrive'],
        ['csv', 'comma-separated, nested objects flattened into dot-path columns (work.title); --csv-safe defuses cells a spreadsheet would run'],
        ['tsv', 'tab-separated, flattened like csv'],
      ],
    },
    {
      paragraph:
        'Without a terminal and without --format, rows are plain tab-separated text with no colour and no borders. JSON and CSV keep every value exactly as the server sent it; only the table shortens, localises or colours.',
    },
    { paragraph: 'Some commands write documents of their own instead, each with its own list:' },
    {
      items: [
        ['ics', 'lk calendar --format ics: an iCalendar file, for calendar apps'],
        ['atom', 'lk feed (the default): an Atom feed'],
        [
          'json',
          'lk feed --format json: a JSON Feed 1.1; lk export and lk api: the JSON as the server sent it; lk report and lk sandbox: their figures or address as JSON',
        ],
        ['csv', 'lk export --format csv: one CSV per collection of the export'],
        ['html', 'lk report (the default): the year in review as one page'],
        ['svg', 'lk card (the default, and its only one): an SVG image of the library'],
        ['lines', 'lk sandbox (the default): its address and key as lines'],
      ],
    },
    {
      paragraph:
        '--fields LIST picks the columns (dot paths, `--fields help` lists them); --jq EXPR filters the JSON with jq, strings printed raw; --no-header drops the header row of a table, csv or tsv. A flag that does not fit a command is refused before any request (exit 2).',
    },
    {
      lines: [
        'lk library --format csv --fields id,work.title,rating',
        "lk history --all --json --jq '.[].work.title'",
        'lk calendar --format ics -o lk.ics',
      ],
    },
  ],
};
