/**
 * Ids that more than one item of a collection carries, counted as the items come: lk export --git names them for the
 * export it commits, lk diff for each side it compares. SPEC.md promises an id per item; two items of one id are the
 * server's or a hand edit's doing, worth a line, never a refusal.
 */
export class DuplicateIds {
  /** Collection → id → how many items carry it. */
  private readonly counts = new Map<string, Map<string, number>>();

  note(collection: string, id: string | null): void {
    if (id === null) return;
    let ids = this.counts.get(collection);
    if (ids === undefined) this.counts.set(collection, (ids = new Map()));
    ids.set(id, (ids.get(id) ?? 0) + 1);
  }

  /** "library e12 ×2; history h4 ×3" (three ids a collection at most, then how many more), or undefined when none. */
  said(): string | undefined {
    const said: string[] = [];
    for (const [collection, ids] of this.counts) {
      const twice = [...ids].filter(([, n]) => n > 1);
      if (twice.length === 0) continue;
      const more = twice.length > 3 ? ` and ${twice.length - 3} more` : '';
      const named = twice.slice(0, 3).map(([id, n]) => `${id} ×${n}`);
      said.push(`${collection} ${named.join(', ')}${more}`);
    }
    return said.length > 0 ? said.join('; ') : undefined;
  }
}
