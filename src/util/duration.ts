const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `45s`, `30m`, `6h`, `2d`, `1w` as milliseconds; undefined for anything else. */
export function durationMs(raw: string): number | undefined {
  const match = /^(\d{1,9})([smhdw])$/.exec(raw.trim());
  return match ? Number(match[1]) * UNIT_MS[match[2]!]! : undefined;
}
