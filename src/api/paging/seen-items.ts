/**
 * Policy: duplicates. A newest-first listing shifts when the account adds something while it is read, and the next
 * page then starts with items the last one ended with: each id is handed over once. Items without an id are kept.
 */
export class SeenItems {
  private readonly ids = new Set<unknown>();
  /** Items dropped as seen before: the listing shifted while it was read, which explains a count short of total. */
  dropped = 0;

  /** The items of a page not seen before, in order. */
  fresh(items: readonly unknown[]): unknown[] {
    const fresh = items.filter((item) => {
      const id = (item as { id?: unknown } | null)?.id;
      if (id === undefined || id === null) return true;
      if (this.ids.has(id)) return false;
      this.ids.add(id);
      return true;
    });
    this.dropped += items.length - fresh.length;
    return fresh;
  }
}
