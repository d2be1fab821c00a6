/**
 * Deterministic randomness for the sandbox. Everything the sandbox invents (data, keys, fault fates) comes from
 * here, so that the same seed always gives the same answers.
 */

/** 32-bit integer hash of a sequence of numbers and strings (FNV-1a over the parts, then the murmur3 finaliser). */
export function hash32(...parts: Array<number | string>): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    if (typeof part === 'number') {
      // Fold both halves of integers beyond 32 bits, so that large counters and timestamps stay distinct.
      const low = part >>> 0;
      const high = Math.floor(part / 0x1_0000_0000) >>> 0;
      h = Math.imul(h ^ low, 0x01000193);
      h = Math.imul(h ^ high, 0x01000193);
    } else {
      for (let i = 0; i < part.length; i += 1) h = Math.imul(h ^ part.charCodeAt(i), 0x01000193);
    }
    h = Math.imul(h ^ 0xff, 0x01000193); // separator, so that ("ab", "c") and ("a", "bc") differ
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A uniform number in [0, 1) that depends only on (seed, n): the n-th draw of a counter-based generator. */
export function uniformAt(seed: number, n: number): number {
  return hash32(seed, n, 'uniform') / 0x1_0000_0000;
}

/** Keys and weights of each weight object, computed once (weights objects are module constants). */
const weightTables = new WeakMap<object, { keys: string[]; weights: number[]; total: number }>();

/** mulberry32: a small, fast, well-distributed 32-bit generator; plenty for demo data. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A child generator whose stream depends on this seed and the labels, not on how much this one has drawn. */
  static derive(seed: number, ...labels: Array<number | string>): Rng {
    return new Rng(hash32(seed, ...labels));
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 0x1_0000_0000;
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Picks a key of `weights` with probability proportional to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    let table = weightTables.get(weights);
    if (!table) {
      const keys = Object.keys(weights);
      table = {
        keys,
        weights: keys.map((key) => (weights as Record<string, number>)[key]!),
        total: keys.reduce((sum, key) => sum + (weights as Record<string, number>)[key]!, 0),
      };
      weightTables.set(weights, table);
    }
    let roll = this.next() * table.total;
    for (let n = 0; n < table.keys.length; n += 1) {
      roll -= table.weights[n]!;
      if (roll < 0) return table.keys[n] as K;
    }
    return table.keys[table.keys.length - 1] as K;
  }

  /** `length` characters drawn from `alphabet`. */
  string(alphabet: string, length: number): string {
    let out = '';
    for (let i = 0; i < length; i += 1) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }
}
