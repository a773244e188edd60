import type { HeldLock, Lock } from "@edgelock/core";
import type { Recorder } from "../../history/recorder.ts";
import type { SectionRecord } from "../../history/types.ts";
import type { WorkerClient } from "../../world/worker-client.ts";
import { runSection } from "../section.ts";
import { acquireOptions, type Activity } from "./activity.ts";

/** A reentrant Lock's section; one in three re-enters and reads the hold count back. */
export const lockActivity: Activity = {
  kind: "lock",
  weight: 4,
  async run(worker) {
    const { rng, world, wc } = worker;
    const name = rng.pick(world.names.locks);
    const resource = `lock:${name}`;
    const lock = wc.client.lock(name);
    const options = acquireOptions(rng);
    const reenter = rng.chance(0.35);
    await runSection(worker, {
      primitive: "lock",
      mode: "exclusive",
      resources: [resource],
      capacity: 1,
      acquire: async () => asHeld(await lock.acquire(options), resource, lock),
      ...(reenter
        ? {
            inner: (section: SectionRecord) =>
              reenterAndCheckCounts(wc, world.recorder, lock, section),
          }
        : {}),
    });
  },
};

/** A hold of the Lock or its kin; `lock`, the handle that took it, reads the server's lease. */
export const asHeld = (held: HeldLock, resource: string, lock: Pick<Lock, "remainingMs">) => ({
  fences: { [resource]: held.fence },
  signal: held.signal,
  release: () => held.release(),
  lease: {
    // Both readings of the worker's (skewed) wall clock at once: the skew cancels out.
    believedMs: () => held.toJSON().expiresAt - Date.now(),
    serverMs: () => lock.remainingMs(),
  },
});

/** Re-enters the held lock, checks the count is 2, releases the inner hold, checks it is 1 again. */
async function reenterAndCheckCounts(
  wc: WorkerClient,
  recorder: Recorder,
  lock: Lock,
  section: SectionRecord,
): Promise<void> {
  const inner = await wc.track("lock reenter", () => lock.acquire({ waitMs: 0 }));
  if (!inner.ok) return;
  await countIs(wc, recorder, lock, section, 2);
  const released = await wc.track("lock release inner", () => inner.value.release());
  if (released.ok) await countIs(wc, recorder, lock, section, 1);
}

async function countIs(
  wc: WorkerClient,
  recorder: Recorder,
  lock: Lock,
  section: SectionRecord,
  expected: number,
): Promise<void> {
  const count = await wc.track("lock holdCount", () => lock.holdCount());
  if (count.ok) recorder.holdCount(section, expected, count.value);
}
