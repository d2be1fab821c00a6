/**
 * The keys of `lk sql`'s rows, one per column and all different, so that no value is lost when two columns share a
 * name (`SELECT e.id, w.id …` names both "id"; `SELECT *` over a join repeats id, title…). The rule is SQLite's own,
 * the names it gives such columns when a query becomes a table (a subquery in FROM, CREATE TABLE … AS SELECT): the
 * first keeps its name, each later one takes the name without a `:N` ending plus `:1`, `:2`… — the first of those
 * that no other column has. So `id, id, id` → `id, id:1, id:2`. Every format (json, ndjson, csv, tsv, table) uses
 * these keys.
 */
export function uniqueColumnKeys(names: readonly string[]): string[] {
  const taken = new Set<string>();
  const counters = new Map<string, number>();
  return names.map((name) => {
    let key = name;
    if (taken.has(key)) {
      const base = name.replace(/:\d+$/, '');
      let counter = counters.get(base) ?? 0;
      do key = `${base}:${++counter}`;
      while (taken.has(key) || names.includes(key));
      counters.set(base, counter);
    }
    taken.add(key);
    return key;
  });
}
