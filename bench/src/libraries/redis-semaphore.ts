import { Redis as IORedis } from "ioredis";
import { Mutex } from "redis-semaphore";
import type { LockLibrary } from "./types.ts";

const LEASE_MS = 10_000; // lockTimeout default

/** redis-semaphore's Mutex (TCP through the proxy): SET NX PX retried every 10 ms (its default). */
export const redisSemaphoreLibrary: LockLibrary = {
  name: "redis-semaphore Mutex",
  transport: "tcp",
  settings: "defaults (lockTimeout 10 s, retryInterval 10 ms, refresh every 8 s)",
  async worker(env) {
    const client = new IORedis(env.proxyUrl, { maxRetriesPerRequest: 0 });
    await new Promise<void>((resolve, reject) =>
      client.once("ready", resolve).once("error", reject),
    );
    return {
      async acquire({ waitMs, leaseMs, name = env.name }) {
        const fixed = leaseMs !== undefined;
        const mutex = new Mutex(client, name, {
          acquireTimeout: waitMs,
          lockTimeout: leaseMs ?? LEASE_MS,
          ...(fixed ? { refreshInterval: 0 } : {}),
        });
        if (!(await mutex.tryAcquire())) return null;
        return {
          release: () => mutex.release(),
          // No public renewal: its timer calls this every lockTimeout × 0.8.
          extend: async () =>
            void (await (mutex as unknown as { _refresh(): Promise<boolean> })._refresh()),
        };
      },
      close: async () => void client.disconnect(),
    };
  },
};
