/**
 * A seeded pseudo-random generator (mulberry32), so that a campaign's choices can be replayed
 * from its printed seed. Timing still varies between runs; the choices do not.
 */
export class Random {
  #state: number;

  constructor(readonly seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** One item, chosen with probability proportional to its weight. */
  weighted<T extends { readonly weight: number }>(items: readonly T[]): T {
    const total = items.reduce((sum, item) => sum + item.weight, 0);
    let x = this.next() * total;
    for (const item of items) {
      x -= item.weight;
      if (x < 0) return item;
    }
    return items[items.length - 1]!;
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }

  /** An independent generator derived from this one (one per worker, so workers do not share a stream). */
  fork(): Random {
    return new Random(Math.floor(this.next() * 4_294_967_296));
  }
}

/** A fresh seed from the environment (`EDGELOCK_CAMPAIGN_SEED`) or from the system's randomness. */
export function seedFrom(env: Record<string, string | undefined>): number {
  const given = env["EDGELOCK_CAMPAIGN_SEED"];
  if (given !== undefined && given !== "") {
    const seed = Number(given);
    if (!Number.isSafeInteger(seed) || seed < 0)
      throw new Error(`EDGELOCK_CAMPAIGN_SEED must be a non-negative integer, got ${given}`);
    return seed >>> 0;
  }
  return crypto.getRandomValues(new Uint32Array(1))[0]!;
}
