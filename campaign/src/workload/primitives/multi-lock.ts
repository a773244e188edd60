import { runSection } from "../section.ts";
import { acquireOptions, type Activity } from "./activity.ts";

/** A MultiLock over two or three of the Lock names: the same state as the Lock's, taken all at once. */
export const multiLockActivity: Activity = {
  kind: "multi-lock",
  weight: 2,
  async run(worker) {
    const { rng, world, wc } = worker;
    const names = world.names.locks.filter(() => rng.chance(0.7));
    if (names.length < 2) return;
    const resources = names.map((n) => `lock:${n}`);
    const multi = wc.client.multiLock(names);
    const options = acquireOptions(rng);
    await runSection(worker, {
      primitive: "multi-lock",
      mode: "exclusive",
      resources,
      capacity: 1,
      acquire: async () => {
        const held = await multi.acquire(options);
        const fences = Object.fromEntries(names.map((n) => [`lock:${n}`, held.fenceOf(n)]));
        return {
          fences,
          signal: held.signal,
          release: () => held.release(),
          lease: {
            believedMs: () => held.toJSON().expiresAt - Date.now(),
            // The hold lasts while every name does: the shortest of the names' leases.
            serverMs: async () =>
              Math.min(...(await Promise.all(names.map((n) => wc.client.lock(n).remainingMs())))),
          },
        };
      },
    });
  },
};
