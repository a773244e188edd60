import { runSection } from "../section.ts";
import { acquireOptions, type Activity } from "./activity.ts";
import { asHeld } from "./lock.ts";

/** A FairLock's section (its own keys and fences: a resource family of its own). */
export const fairLockActivity: Activity = {
  kind: "fair-lock",
  weight: 2,
  async run(worker) {
    const { rng, world, wc } = worker;
    const name = rng.pick(world.names.fairLocks);
    const resource = `fair:${name}`;
    const lock = wc.client.fairLock(name);
    const options = acquireOptions(rng);
    await runSection(worker, {
      primitive: "fair-lock",
      mode: "exclusive",
      resources: [resource],
      capacity: 1,
      acquire: async () => asHeld(await lock.acquire(options), resource, lock),
    });
  },
};
