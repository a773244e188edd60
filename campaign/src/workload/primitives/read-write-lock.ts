import { inspect } from "@edgelock/core";
import { runSection } from "../section.ts";
import { inspectedLeaseMs } from "./inspected-lease.ts";
import { acquireOptions, type Activity } from "./activity.ts";
import { asHeld } from "./lock.ts";

/** A ReadWriteLock's writer: exclusive, writes under its fence. */
export const writeLockActivity: Activity = {
  kind: "read-write-lock:write",
  weight: 1,
  async run(worker) {
    const { rng, world, wc } = worker;
    const name = rng.pick(world.names.readWriteLocks);
    const resource = `rw:${name}`;
    const lock = wc.client.readWriteLock(name).write;
    const options = acquireOptions(rng);
    await runSection(worker, {
      primitive: "read-write-lock:write",
      mode: "exclusive",
      resources: [resource],
      capacity: 1,
      acquire: async () => asHeld(await lock.acquire(options), resource, lock),
    });
  },
};

/**
 * A ReadWriteLock's reader: shares with readers, reads the resource's version at entry and exit.
 * Its lease probe reads its own reader's lease (the read side's `remainingMs()` reports the
 * longest reader's, which would hide a belief past its own).
 */
export const readLockActivity: Activity = {
  kind: "read-write-lock:read",
  weight: 2,
  async run(worker) {
    const { rng, world, wc } = worker;
    const name = rng.pick(world.names.readWriteLocks);
    const resource = `rw:${name}`;
    const lock = wc.client.readWriteLock(name).read;
    const inspector = inspect(wc.client);
    const options = acquireOptions(rng);
    await runSection(worker, {
      primitive: "read-write-lock:read",
      mode: "shared",
      resources: [resource],
      capacity: 1,
      acquire: async () => {
        const held = await lock.acquire(options);
        const owner = held.toJSON().owner;
        const own = () => inspectedLeaseMs(inspector, name, "read-write-lock", owner, "read");
        const asLock = asHeld(held, resource, lock);
        return { ...asLock, lease: { ...asLock.lease, serverMs: own } };
      },
    });
  },
};
