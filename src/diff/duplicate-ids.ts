/**
 * Ids that more than one item of a collection carries, counted as the items come: lk export --git names them for the
 * export it commits, lk diff for each side it compares. docs/api.md promises an id per item; two items of one id are the
 * server's or a hand edit's doing, worth a line, never a refusal.
 *
 * Two 50,000-entry exports hold 267,000 items each: keeping every id as a string cost lk diff 0.7 s of CPU and 80 MB
 * more (half again). An id seen is kept as a 52-bit hash in a typed array instead (0.3 s, 20 MB), no object per
 * item; only an id seen again is kept whole. Two different ids of one hash would be named as one id twice: for a million
 * ids, a chance of about 1 in 10,000, and a warning line is all it touches (items are matched by their ids, exactly).
 */
export class DuplicateIds {
  private readonly seen = new Map<string, HashSet>();
  /** Collection → id seen more than once → how many times. */
  private readonly again = new Map<string, Map<string, number>>();

  note(collection: string, id: string | null): void {
    if (id === null) return;
    let seen = this.seen.get(collection);
    if (seen === undefined) this.seen.set(collection, (seen = new HashSet()));
    if (seen.add(hash52(id))) return;
    let ids = this.again.get(collection);
    if (ids === undefined) this.again.set(collection, (ids = new Map()));
    ids.set(id, (ids.get(id) ?? 1) + 1);
  }

  /** "library e12 ×2; history h4 ×3" (three ids a collection at most, then how many more), or undefined when none. */
  said(): string | undefined {
    const said: string[] = [];
    for (const [collection, ids] of this.again) {
      const twice = [...ids];
      const more = twice.length > 3 ? ` and ${twice.length - 3} more` : '';
      const named = twice.slice(0, 3).map(([id, n]) => `${id} ×${n}`);
      said.push(`${collection} ${named.join(', ')}${more}`);
    }
    return said.length > 0 ? said.join('; ') : undefined;
  }
}

/** Two 32-bit FNV-1a hashes of different seeds, as one integer below 2^52 (exact in a double). */
function hash52(text: string): number {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x01000193) ^ (b >>> 15);
  }
  return (a >>> 0) * 0x100000 + ((b >>> 0) & 0xfffff);
}

/** Open addressing over a Float64Array, at most half full; 0 is an empty slot, so each hash is stored plus one. */
class HashSet {
  private slots = new Float64Array(1024);
  private size = 0;

  /** False when the value was there already. */
  add(hash: number): boolean {
    const value = hash + 1;
    const at = this.find(this.slots, value);
    if (this.slots[at] === value) return false;
    this.slots[at] = value;
    if (++this.size * 2 > this.slots.length) this.grow();
    return true;
  }

  private find(slots: Float64Array, value: number): number {
    const mask = slots.length - 1;
    let at = value % slots.length;
    while (slots[at] !== 0 && slots[at] !== value) at = (at + 1) & mask;
    return at;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Float64Array(old.length * 2);
    for (const value of old) if (value !== 0) this.slots[this.find(this.slots, value)] = value;
  }
}
