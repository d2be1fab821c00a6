/**
 * A date as the API reads a from/to window, in milliseconds: a day (YYYY-MM-DD) means its first millisecond as a start
 * and its last as an end (UTC days); a date-time is that moment. Once for the command's flags, the mirror's answer and
 * lk mcp's arguments.
 */
export function dateBound(date: string, edge: 'start' | 'end'): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(date)) {
    const start = Date.parse(`${date}T00:00:00Z`);
    return edge === 'start' ? start : start + 86_400_000 - 1;
  }
  return Date.parse(date);
}
