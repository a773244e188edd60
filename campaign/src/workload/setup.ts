import type { WorkerClient } from "../world/worker-client.ts";
import { pause } from "./pause.ts";
import type { Names } from "./world.ts";

const ATTEMPTS = 30;

/** Sets every semaphore's permits (at the start, and again after Redis lost its data). */
export async function setPermits(wc: WorkerClient, names: Names): Promise<void> {
  for (const { name, permits } of names.semaphores) {
    await untilDone(wc, `semaphore trySetPermits`, () =>
      wc.client.semaphore(name).trySetPermits(permits),
    );
  }
  for (const { name, permits } of names.permitSemaphores) {
    await untilDone(wc, `permit-semaphore trySetPermits`, () =>
      wc.client.permitExpirableSemaphore(name).trySetPermits(permits),
    );
  }
}

/** Repeats a call until it answers (it is idempotent, or its failure left nothing behind). */
export async function untilDone<T>(
  wc: WorkerClient,
  operation: string,
  fn: () => Promise<T>,
): Promise<T | undefined> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const outcome = await wc.track(operation, fn);
    if (outcome.ok) return outcome.value;
    await pause(100);
  }
  return undefined;
}
