// POST /api/counters/:name/increment — a read-modify-write made safe by a lock.
import { AcquireTimeoutError, createClient } from "@edgelock/core";
import { keeperFromEnv, redisFromEnv, vercelKeeper } from "@edgelock/vercel";
import { Redis } from "@upstash/redis";
import { waitUntil } from "@vercel/functions";

export async function POST(
  _request: Request,
  { params }: { params: Promise<{ name: string }> }, // a Promise since Next.js 15
): Promise<Response> {
  const { name } = await params;
  // One client per invocation: its keeper renews the lease under this invocation's waitUntil
  // and, when EDGELOCK_KEEPER_URL is set, hands a hold that outlives the function to the keeper.
  const edgelock = createClient({
    redis: redisFromEnv(), // { url, token } from UPSTASH_REDIS_REST_URL and _TOKEN
    keeper: vercelKeeper(
      process.env.EDGELOCK_KEEPER_URL
        ? { handoff: { keeper: keeperFromEnv(), maxHoldMs: 600_000 } }
        : {},
    ),
  });
  try {
    return await edgelock.lock(`counter:${name}`).withLock(
      async (held) => {
        const redis = Redis.fromEnv();
        const key = `example:counter:${name}`;
        const value = Number((await redis.get<number>(key)) ?? 0) + 1;
        held.signal.throwIfAborted(); // the lease was lost: do not write
        await redis.set(key, value);
        return Response.json({ value, fence: held.fence });
      },
      { waitMs: 5_000 },
    );
  } catch (error) {
    if (!(error instanceof AcquireTimeoutError)) throw error; // the real error, never replaced
    return Response.json({ error: "busy" }, { status: 423, headers: { "retry-after": "1" } });
  } finally {
    waitUntil(edgelock.settled()); // background cleanups outlive the response
  }
}
