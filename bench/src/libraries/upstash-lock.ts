import { Lock } from "@upstash/lock";
import { Redis } from "@upstash/redis";
import type { LockLibrary } from "./types.ts";

const RETRY_DELAY_MS = 100; // the library's default
const DEFAULT_LEASE_MS = 10_000; // the library's default

/** @upstash/lock: SET NX PX, retried after a fixed delay; release and extend by EVAL. */
export const upstashLockLibrary: LockLibrary = {
  name: "@upstash/lock",
  transport: "rest",
  settings: `defaults (lease ${DEFAULT_LEASE_MS / 1000} s, retry every ${RETRY_DELAY_MS} ms), attempts sized to the wait`,
  async worker(env) {
    const redis = new Redis({ url: env.rest.url, token: env.rest.token });
    return {
      async acquire({ waitMs, leaseMs, name = env.name }) {
        const lock = new Lock({
          id: name,
          redis,
          lease: leaseMs ?? DEFAULT_LEASE_MS,
          retry: { attempts: Math.ceil(waitMs / RETRY_DELAY_MS) + 1, delay: RETRY_DELAY_MS },
        });
        if (!(await lock.acquire())) return null;
        return {
          release: async () => void (await lock.release()),
          extend: async (ms) => void (await lock.extend(ms)),
        };
      },
      close: async () => undefined,
    };
  },
};
