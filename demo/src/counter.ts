import { createClient } from "@edgelock/core";
import { Redis } from "@upstash/redis";

/** One serverless "invocation": its own HTTP client, its own edgelock client, nothing shared. */
export interface Invocation {
  readonly url: string;
  readonly token: string;
  readonly key: string;
  /** Time between reading and writing the counter, ms: the window a race needs. */
  readonly workMs: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function redisFor(inv: Invocation): Redis {
  return new Redis({ url: inv.url, token: inv.token, enableAutoPipelining: false });
}

/** Read, think, write: the classic lost-update race. */
async function readModifyWrite(redis: Redis, key: string, workMs: number): Promise<void> {
  const value = Number((await redis.get<number>(key)) ?? 0);
  await pause(workMs);
  await redis.set(key, value + 1);
}

export async function incrementUnlocked(inv: Invocation): Promise<void> {
  await readModifyWrite(redisFor(inv), inv.key, inv.workMs);
}

/** The same update inside an edgelock Lock; returns the fencing token of the hold. */
export async function incrementLocked(inv: Invocation, lockName: string, prefix: string): Promise<number> {
  const redis = redisFor(inv);
  const edgelock = createClient({ redis, prefix });
  return edgelock.lock(lockName).withLock(
    async (held) => {
      await readModifyWrite(redis, inv.key, inv.workMs);
      return held.fence;
    },
    { waitMs: 60_000 },
  );
}
