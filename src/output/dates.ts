/** Dates as a person reads them in a table: "3h ago", "in 2d", else the local day. Pipes keep the server's text. */
export function shortDate(value: unknown, now: number): string {
  if (typeof value !== 'string' || value === '') return '';
  const time = Date.parse(value);
  if (Number.isNaN(time)) return value;
  const diff = time - now;
  const abs = Math.abs(diff);
  const minute = 60_000;
  const hour = 60 * minute;
  const day = 24 * hour;
  if (abs < 7 * day) {
    const [amount, unit] = abs < minute ? [0, 'now'] : abs < hour ? [Math.round(abs / minute), 'm'] : abs < day ? [Math.round(abs / hour), 'h'] : [Math.round(abs / day), 'd'];
    if (unit === 'now') return 'just now';
    return diff < 0 ? `${amount}${unit} ago` : `in ${amount}${unit}`;
  }
  return localDay(time);
}

export function localDay(time: number): string {
  const date = new Date(time);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Local day and time, for things that happen at a moment (an episode airing). */
export function localDateTime(value: unknown): string {
  if (typeof value !== 'string') return '';
  const time = Date.parse(value);
  if (Number.isNaN(time)) return value;
  const date = new Date(time);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${localDay(time)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
