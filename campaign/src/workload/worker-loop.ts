import { pause } from "./pause.ts";
import type { Activity } from "./primitives/index.ts";
import type { Worker } from "./world.ts";

/** A worker's life: pick an activity by weight, run it, breathe, until the campaign stops. */
export async function workerLoop(
  worker: Worker,
  activities: readonly Activity[],
  stop: AbortSignal,
): Promise<void> {
  while (!stop.aborted) {
    const activity = worker.rng.weighted(activities);
    try {
      await activity.run(worker);
    } catch (error) {
      // Typed errors are outcomes inside activities; anything escaping is the campaign's own bug
      // or an untyped error from the library: record it, never let it end the worker silently.
      worker.world.recorder.untyped(worker.id, activity.kind, error);
    }
    await pause(worker.rng.int(0, 15));
  }
}
