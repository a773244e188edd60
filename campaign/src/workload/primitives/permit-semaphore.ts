import { inspect } from "@edgelock/core";
import { runSection } from "../section.ts";
import { inspectedLeaseMs } from "./inspected-lease.ts";
import { acquireOptions, type Activity } from "./activity.ts";

/**
 * A PermitExpirableSemaphore's permit: leased, with a fence. Counted against its permits; its
 * fence is checked for order only (a fenced register fits one holder, not N).
 */
export const permitSemaphoreActivity: Activity = {
  kind: "permit-expirable-semaphore",
  weight: 2,
  async run(worker) {
    const { rng, world, wc } = worker;
    const { name, permits } = rng.pick(world.names.permitSemaphores);
    const resource = `pes:${name}`;
    const semaphore = wc.client.permitExpirableSemaphore(name);
    const inspector = inspect(wc.client);
    const options = acquireOptions(rng);
    await runSection(worker, {
      primitive: "permit-expirable-semaphore",
      mode: "counted",
      resources: [resource],
      capacity: permits,
      acquire: async () => {
        const permit = await semaphore.acquire(options);
        return {
          fences: { [resource]: permit.fence },
          signal: permit.signal,
          release: () => permit.release(),
          lease: {
            // Both readings of the worker's (skewed) wall clock at once: the skew cancels out.
            believedMs: () => permit.toJSON().expiresAt - Date.now(),
            serverMs: () =>
              inspectedLeaseMs(inspector, name, "permit-expirable-semaphore", permit.id, "permit"),
          },
        };
      },
    });
  },
};
