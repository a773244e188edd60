import { Redis as IORedis } from "ioredis";
import Redlock from "redlock";
import type { LockLibrary } from "./types.ts";

const DEFAULT_RETRY_DELAY_MS = 200; // the library's defaults: 200 ms ± 100 ms
const LEASE_MS = 10_000;

/** redlock 5 on one Redis instance (TCP through the proxy), its default retry pacing. */
export const redlockLibrary: LockLibrary = {
  name: "redlock",
  transport: "tcp",
  settings: `one instance, lease ${LEASE_MS / 1000} s, default retry ${DEFAULT_RETRY_DELAY_MS} ± 100 ms, count sized to the wait`,
  async worker(env) {
    const client = new IORedis(env.proxyUrl, { maxRetriesPerRequest: 0 });
    await new Promise<void>((resolve, reject) =>
      client.once("ready", resolve).once("error", reject),
    );
    const redlock = new Redlock([client]);
    redlock.on("error", () => undefined); // failed attempts are reported through acquire() too
    return {
      async acquire({ waitMs, leaseMs, name = env.name }) {
        try {
          const lock = await redlock.acquire([name], leaseMs ?? LEASE_MS, {
            retryCount: Math.ceil(waitMs / DEFAULT_RETRY_DELAY_MS),
          });
          let current = lock;
          return {
            release: async () => void (await current.release()),
            extend: async (ms) => void (current = await current.extend(ms)),
          };
        } catch {
          return null;
        }
      },
      close: async () => void client.disconnect(),
    };
  },
};
