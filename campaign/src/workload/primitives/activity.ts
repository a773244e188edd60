import type { Random } from "../../random.ts";
import type { Worker } from "../world.ts";

/** One kind of thing a worker does, picked at random by weight. */
export interface Activity {
  readonly kind: string;
  readonly weight: number;
  run(worker: Worker): Promise<void>;
}

/** Acquire options of a section: a wait budget, and now and then a fixed lease instead of a kept-alive one. */
export function acquireOptions(rng: Random): { waitMs: number; leaseMs?: number } {
  const waitMs = rng.int(300, 2_500);
  return rng.chance(0.2) ? { waitMs, leaseMs: rng.int(1_500, 3_000) } : { waitMs };
}
