import type { Random } from "../../random.ts";
import type { Worker } from "../world.ts";

/** One kind of thing a worker does, picked at random by weight. */
export interface Activity {
  readonly kind: string;
  readonly weight: number;
  run(worker: Worker): Promise<void>;
}

/**
 * Acquire options of a section: a wait budget, and now and then a fixed lease instead of a
 * kept-alive one — sometimes one shorter than the section, so the holder overruns it and must
 * stop when its signal aborts.
 */
export function acquireOptions(rng: Random): { waitMs: number; leaseMs?: number } {
  const waitMs = rng.int(300, 2_500);
  const roll = rng.next();
  if (roll < 0.15) return { waitMs, leaseMs: rng.int(1_500, 3_000) };
  if (roll < 0.2) return { waitMs, leaseMs: rng.int(20, 60) };
  return { waitMs };
}
