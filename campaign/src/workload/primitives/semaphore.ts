import { runSection } from "../section.ts";
import type { Activity } from "./activity.ts";

/**
 * A Semaphore's permit: unowned and unleased, so only the count is checked (no fence). A permit
 * entered on a pushed grant is the grant's until its claim lands, and its `signal` aborts if the
 * claim does not land in time: the holder stops then, as the type's documentation asks.
 */
export const semaphoreActivity: Activity = {
  kind: "semaphore",
  weight: 2,
  async run(worker) {
    const { rng, world, wc } = worker;
    const { name, permits } = rng.pick(world.names.semaphores);
    const semaphore = wc.client.semaphore(name);
    const waitMs = rng.int(300, 2_500);
    await runSection(worker, {
      primitive: "semaphore",
      mode: "counted",
      resources: [`sem:${name}`],
      capacity: permits,
      retryUnknownRelease: true,
      acquire: async () => {
        const hold = await semaphore.acquire({ waitMs });
        return { fences: {}, signal: hold.signal, release: () => hold.release() };
      },
    });
  },
};
