import { pause } from "../workload/pause.ts";
import { onTimePush } from "../world/push-faults.ts";
import type { Fault, FaultContext } from "./fault.ts";

/**
 * Injects one fault episode after another, with a quiet gap between them, until `stop` aborts;
 * then clears every rule. The first episodes walk the whole list in a shuffled order, and that
 * first round is always completed, so every kind is injected at least once however short the
 * run or slow the machine; later episodes are drawn by weight.
 */
export async function runDriver(
  ctx: FaultContext,
  faults: readonly Fault[],
  stop: AbortSignal,
): Promise<void> {
  const firstRound = ctx.rng.shuffle(faults);
  while (faults.length > 0 && (!stop.aborted || firstRound.length > 0)) {
    await pause(ctx.rng.int(150, 600), firstRound.length > 0 ? undefined : stop);
    if (stop.aborted && firstRound.length === 0) break;
    ctx.firstRound = firstRound.length > 0;
    const fault = firstRound.shift() ?? ctx.rng.weighted(faults);
    await fault.inject(ctx);
  }
  await ctx.stack.faults.clear();
  for (const worker of ctx.world.workers) {
    worker.skew.ms = 0;
    Object.assign(worker.push, onTimePush());
  }
}
