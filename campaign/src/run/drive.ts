import { runDriver } from "../faults/driver.ts";
import type { Fault, FaultContext } from "../faults/fault.ts";
import { pause } from "../workload/pause.ts";
import type { Activity } from "../workload/primitives/index.ts";
import { workerLoop } from "../workload/worker-loop.ts";
import { runSkewed } from "../world/clock-skew.ts";

/**
 * The campaign proper: workers run (each under its own clock skew) while the driver injects
 * faults for `seconds`; the driver then finishes its first round of every kind, however long that
 * takes, and only then do the workers stop.
 */
export async function drive(
  ctx: FaultContext,
  faults: readonly Fault[],
  activities: readonly Activity[],
  seconds: number,
): Promise<void> {
  const stopFaults = new AbortController();
  const stopWorkers = new AbortController();
  const running = ctx.world.workers.map((w) =>
    runSkewed(w.skew, () => workerLoop(w, activities, stopWorkers.signal)),
  );
  const driving = runDriver(ctx, faults, stopFaults.signal);
  await pause(seconds * 1_000);
  stopFaults.abort();
  await driving;
  stopWorkers.abort();
  await Promise.all(running);
}
