/**
 * The jobs `lk schedule` installs: what each runs (lk's words after lk's own command), how often by default, and the
 * shortest interval the API's limits allow it (docs/api.md, "Limits").
 */
export const JOB_NAMES = ['sync', 'backup', 'notify'] as const;
export type JobName = (typeof JOB_NAMES)[number];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export interface JobKind {
  readonly description: string;
  readonly defaultEvery: string;
  /** The shortest --every, and why, for the refusal. */
  readonly floorMs: number;
  readonly floorWhy: string;
  /** Whether its run reads or writes the mirror, which needs node:sqlite in the Node the job runs lk with. */
  readonly needsMirror: boolean;
  /** lk's words for one run (backup's folder is handed in). */
  readonly words: (dir: string | undefined) => string[];
}

// A sync within the export hour reads /v1/library and /v1/history page by page: each run spends requests from the
// account's 60 a minute, shared with every key and every person using it. Every 15 minutes at most keeps a scheduled
// job to a few requests a quarter of an hour and leaves the budget to the person; notify --sync is that sync plus
// messages (and airing times move in hours, not minutes).
const SYNC_FLOOR_WHY = 'each sync spends requests from the 60 a minute the account shares with every key';

export const JOBS: Record<JobName, JobKind> = {
  sync: {
    description: 'lk sync: the mirror brought up to date',
    defaultEvery: '1h',
    floorMs: 15 * MINUTE,
    floorWhy: SYNC_FLOOR_WHY,
    needsMirror: true,
    words: () => ['sync', '-q'],
  },
  backup: {
    description: 'lk export --git DIR: the export committed to a git repository',
    defaultEvery: '1d',
    // docs/api.md: one export an hour per account.
    floorMs: HOUR,
    floorWhy: 'the API gives one export an hour',
    needsMirror: false,
    words: (dir) => ['export', '--git', dir!, '-q'],
  },
  notify: {
    description: 'lk notify --sync: a sync, then what is new told to your targets',
    defaultEvery: '30m',
    floorMs: 15 * MINUTE,
    floorWhy: SYNC_FLOOR_WHY,
    needsMirror: true,
    words: () => ['notify', '--sync', '-q'],
  },
};

export function isJobName(name: string): name is JobName {
  return (JOB_NAMES as readonly string[]).includes(name);
}
