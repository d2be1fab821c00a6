import { durationMs } from '../util/duration.js';
import { UsageError } from '../util/errors.js';
import { formatDuration } from '../util/units.js';
import { JOBS, type JobName } from './jobs.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * How often a job runs, at steady times of the day, so that cron can say it as well as systemd: a number of minutes
 * that divides an hour, of hours that divides a day, or a day.
 */
export interface Interval {
  /** As people read it (and systemd does): `30m`, `6h`, `1d`. */
  readonly text: string;
  readonly ms: number;
  /** Minutes apart (under an hour) or hours apart (an hour to a day). */
  readonly unit: 'minutes' | 'hours';
  readonly count: number;
}

const STEADY = 'a number of minutes that divides an hour (15m, 20m, 30m), of hours that divides a day (1h, 2h, 3h, 4h, 6h, 8h, 12h), or 1d';

/** --every for a job, checked before anything is touched (exit 2): a steady interval no shorter than the job's floor. */
export function parseInterval(raw: string, job: JobName): Interval {
  const ms = durationMs(raw);
  if (ms === undefined || ms === 0) throw new UsageError(`invalid --every "${raw}": expected a duration such as 30m, 6h or 1d`);
  const kind = JOBS[job];
  if (ms < kind.floorMs) {
    throw new UsageError(`--every ${raw} is too often for ${job}: at most every ${formatDuration(kind.floorMs / 1000)} (${kind.floorWhy})`);
  }
  if (ms < HOUR && ms % MINUTE === 0 && HOUR % ms === 0) return { text: `${ms / MINUTE}m`, ms, unit: 'minutes', count: ms / MINUTE };
  if (ms >= HOUR && ms % HOUR === 0 && DAY % ms === 0) {
    return { text: ms === DAY ? '1d' : `${ms / HOUR}h`, ms, unit: 'hours', count: ms / HOUR };
  }
  throw new UsageError(`invalid --every "${raw}": a job runs at steady times of the day, so use ${STEADY}`);
}
