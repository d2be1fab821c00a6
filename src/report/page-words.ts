/** What `lk report` says when the period holds nothing: where the mirror's dated events are, if anywhere. */
export function noActivityHint(span: { first: string; last: string } | undefined): string {
  if (!span) return 'The mirror holds no dated event at all: run `lk sync` (or `lk report --sync`) to fill it.';
  const first = span.first.slice(0, 10);
  const last = span.last.slice(0, 10);
  const years = first.slice(0, 4) === last.slice(0, 4) ? first.slice(0, 4) : `${first.slice(0, 4)} to ${last.slice(0, 4)}`;
  return `Its dated events run from ${first} to ${last}: try --year with ${years}, or lk report --sync if that is old.`;
}
