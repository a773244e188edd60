import { randomUUID } from "node:crypto";
import { Redis } from "@upstash/redis";
import type { LockLibrary } from "./types.ts";

const RETRY_MS = 50;
const LEASE_MS = 10_000;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const EXTEND = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;

/** What most hand-written locks look like: SET NX PX, retry every 50 ms, compare-and-delete. */
export const naiveLibrary: LockLibrary = {
  name: "naive SET NX + 50 ms",
  transport: "rest",
  settings: `SET NX PX ${LEASE_MS / 1000} s, fixed ${RETRY_MS} ms retry, release by EVAL`,
  async worker(env) {
    const redis = new Redis({ url: env.rest.url, token: env.rest.token });
    return {
      async acquire({ waitMs, leaseMs, name = env.name }) {
        const id = randomUUID();
        const end = performance.now() + waitMs;
        while ((await redis.set(name, id, { nx: true, px: leaseMs ?? LEASE_MS })) !== "OK") {
          if (performance.now() + RETRY_MS > end) return null;
          await new Promise((r) => setTimeout(r, RETRY_MS));
        }
        return {
          release: async () => void (await redis.eval(RELEASE, [name], [id])),
          extend: async (ms) => void (await redis.eval(EXTEND, [name], [id, ms])),
        };
      },
      close: async () => undefined,
    };
  },
};
