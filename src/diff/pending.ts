/**
 * The items of one collection read on one side and not yet found on the other, as texts. Two exports list their
 * items in the same order, give or take the few added or removed: an item of the other side is looked for at the
 * front of the queue first (a comparison of two strings, no hashing), then among the few passed over. Items that
 * wait too long (the sides out of step) move to a map, where they are still found, by hash.
 */

/** How far into the queue an item of the other side is looked for. */
const WINDOW = 32;
/** How many items may wait in the queue before the oldest move to the map. */
const QUEUE_LIMIT = 20_000;

export class PendingTexts {
  private queue: (string | undefined)[] = [];
  private head = 0;
  private readonly passed = new Map<string, number>();
  /** How many passed texts have each length: most items are told absent from the map by their length, unhashed. */
  private readonly passedLengths = new Map<number, number>();

  add(text: string): void {
    this.queue.push(text);
    if (this.queue.length - this.head > QUEUE_LIMIT) this.passOver(this.head + 1);
  }

  /** True when `text` was waiting here (it is then taken out). */
  take(text: string): boolean {
    const end = Math.min(this.queue.length, this.head + WINDOW);
    for (let j = this.head; j < end; j++) {
      if (this.queue[j] === text) {
        this.passOver(j);
        this.queue[this.head] = undefined;
        this.head += 1;
        this.compact();
        return true;
      }
    }
    if (!this.passedLengths.has(text.length)) return false;
    const count = this.passed.get(text);
    if (count === undefined) return false;
    if (count === 1) this.passed.delete(text);
    else this.passed.set(text, count - 1);
    const sameLength = this.passedLengths.get(text.length)!;
    if (sameLength === 1) this.passedLengths.delete(text.length);
    else this.passedLengths.set(text.length, sameLength - 1);
    return true;
  }

  /** Everything still waiting, in no particular order. */
  left(): string[] {
    const out = this.queue.slice(this.head) as string[];
    for (const [text, count] of this.passed) for (let n = 0; n < count; n++) out.push(text);
    return out;
  }

  /** Moves the queue's items before index `end` to the map. */
  private passOver(end: number): void {
    for (; this.head < end; this.head++) {
      const text = this.queue[this.head]!;
      this.passed.set(text, (this.passed.get(text) ?? 0) + 1);
      this.passedLengths.set(text.length, (this.passedLengths.get(text.length) ?? 0) + 1);
      this.queue[this.head] = undefined;
    }
  }

  private compact(): void {
    if (this.head > 4096 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }
}
