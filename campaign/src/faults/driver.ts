import { pause } from "../workload/pause.ts";
import type { Fault, FaultContext } from "./fault.ts";

/**
 * Injects one fault episode after another, with a quiet gap between them, until `stop` aborts;
 * then clears every rule. Each kind is injected at least once when the run is long enough:
 * the first episodes walk the list in a shuffled order, later ones are drawn by weight.
 */
export async function runDriver(ctx: FaultContext, faults: readonly Fault[], stop: AbortSignal): Promise<void> {
  const firstRound = ctx.rng.shuffle(faults);
  while (!stop.aborted) {
    await pause(ctx.rng.int(150, 600), stop);
    if (stop.aborted) break;
    const fault = firstRound.shift() ?? ctx.rng.weighted(faults);
    await fault.inject(ctx);
  }
  await ctx.stack.faults.clear();
  for (const worker of ctx.world.workers) worker.skew.ms = 0;
}
