/** Durations and sizes as people read them in messages: `45s`, `3m 20s`, `1h 5m`; `512 B`, `12 KiB`, `3 MiB`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${s % 60 ? ` ${s % 60}s` : ''}`;
  return `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60) ? ` ${Math.floor((s % 3600) / 60)}m` : ''}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MiB` : `${Math.round(bytes / 1024)} KiB`;
}

/** Counts as people read them: 4,210. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * A moment a person waits for, the same way in every message (rate-limit resets, the next export): local 24-hour
 * time, the day in front when it is not today, and how far off it is: "14:05:09 (in 55s)", "2026-11-24 09:00:00 (in 18h)".
 */
export function formatMoment(epochMs: number, now: number): string {
  const [day, time] = localMoment(epochMs).split(' ');
  const sameDay = day === localMoment(now).split(' ')[0];
  return `${sameDay ? time : `${day} ${time}`} (in ${formatDuration(Math.max(0, (epochMs - now) / 1000))})`;
}

/** A moment in local time to the second: `2026-11-29 03:17:00`. */
export function localMoment(epochMs: number): string {
  const date = new Date(epochMs);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
