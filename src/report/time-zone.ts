/**
 * Calendar days in the account's time zone, fast enough for a year of 100,000 events: Intl is asked for a zone's
 * offset once per UTC day (at both ends of it), and only on the rare day that changes offset once per event.
 */

const DAY = 86_400_000;

export interface LocalDate {
  year: number;
  /** 1 to 12. */
  month: number;
  day: number;
  /** 0 = Monday … 6 = Sunday. */
  weekday: number;
  /** Days since 1970-01-01 in this zone: consecutive local days differ by one. */
  dayNumber: number;
}

/** True when Intl knows the zone (an IANA name such as Europe/London). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * A zone's formatter and its offset for each UTC day (undefined on a day its offset changes), kept for the process:
 * a zone's rules do not change while lk runs, and a report, a site or a server makes many TimeZone objects of one zone
 * (a year page, a query, a request each): shared, Intl is asked once per day and zone, not once per day and object.
 */
interface ZoneRules {
  format: Intl.DateTimeFormat;
  dayOffsets: Map<number, number | undefined>;
}
const rulesOfZone = new Map<string, ZoneRules>();

function rulesOf(name: string): ZoneRules {
  let rules = rulesOfZone.get(name);
  if (!rules) {
    const format = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    rules = { format, dayOffsets: new Map() };
    rulesOfZone.set(name, rules);
  }
  return rules;
}

export class TimeZone {
  private readonly format: Intl.DateTimeFormat;
  private readonly dayOffsets: Map<number, number | undefined>;

  constructor(readonly name: string) {
    ({ format: this.format, dayOffsets: this.dayOffsets } = rulesOf(name));
  }

  /** Milliseconds to add to a UTC instant to get the zone's wall-clock time at that instant. */
  offsetAt(ms: number): number {
    const utcDay = Math.floor(ms / DAY);
    let offset = this.dayOffsets.get(utcDay);
    if (offset === undefined && !this.dayOffsets.has(utcDay)) {
      const start = this.exactOffset(utcDay * DAY);
      const end = this.exactOffset(utcDay * DAY + DAY - 1);
      offset = start === end ? start : undefined;
      this.dayOffsets.set(utcDay, offset);
    }
    return offset ?? this.exactOffset(ms);
  }

  localDate(ms: number): LocalDate {
    const dayNumber = Math.floor((ms + this.offsetAt(ms)) / DAY);
    const date = new Date(dayNumber * DAY);
    return {
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day: date.getUTCDate(),
      weekday: (date.getUTCDay() + 6) % 7,
      dayNumber,
    };
  }

  /** The UTC instant of local midnight starting that day (month 1 to 12; 13 is January of the next year). */
  startOfDay(year: number, month: number, day: number): number {
    const wall = Date.UTC(year, month - 1, day);
    // Two passes: the offset at the guess may differ from the offset at the answer across a change of offset.
    const guess = wall - this.offsetAt(wall);
    return wall - this.offsetAt(guess);
  }

  /**
   * The zone's offsets over [from, to), each with the instant it stops applying: a year in Europe/London is three
   * (GMT, BST, GMT). A change of offset is found to the minute, by halving the day it falls in.
   */
  offsetSegments(from: number, to: number): { until: number; offset: number }[] {
    const segments: { until: number; offset: number }[] = [];
    let offset = this.offsetAt(from);
    let probe = from;
    while (probe < to) {
      const next = Math.min(to, (Math.floor(probe / DAY) + 1) * DAY);
      if (this.offsetAt(next - 1) === offset) {
        probe = next;
        continue;
      }
      let same = probe;
      let changed = next - 1;
      while (changed - same > 60_000) {
        const middle = same + Math.max(60_000, Math.floor((changed - same) / 120_000) * 60_000);
        if (this.exactOffset(middle) === offset) same = middle;
        else changed = middle;
      }
      segments.push({ until: changed, offset });
      offset = this.exactOffset(changed);
      probe = changed;
    }
    segments.push({ until: to, offset });
    return segments;
  }

  private exactOffset(ms: number): number {
    const parts: Record<string, number> = {};
    for (const part of this.format.formatToParts(new Date(ms))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
    const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
    return wall - (ms - (((ms % 1000) + 1000) % 1000));
  }
}

/**
 * The zone used when the mirror's profile names none lk knows: TZ, else this machine's, else UTC. A TZ that names no
 * zone (empty, as some containers and cron set it, or unknown) is not followed: `warn` gets one line, and UTC is used.
 */
export function fallbackTimeZone(env: NodeJS.ProcessEnv, warn?: (line: string) => void): string {
  if (env.TZ !== undefined) {
    const named = env.TZ.replace(/^:/, '');
    if (named && isTimeZone(named)) return named;
    warn?.(`lk: warning: TZ=${JSON.stringify(env.TZ)} names no time zone lk knows: days are the profile's time zone, else UTC`);
    return 'UTC';
  }
  const machine = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return machine && isTimeZone(machine) ? machine : 'UTC';
}

/** Today's date (YYYY-MM-DD) in a zone. */
export function localToday(now: number, zone: string): string {
  const date = new TimeZone(zone).localDate(now);
  return `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}
