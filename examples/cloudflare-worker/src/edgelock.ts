import { keeperFromEnv, redisFromEnv, waitUntilKeeper } from "@edgelock/cloudflare";
import { createClient, type EdgelockClient } from "@edgelock/core";
import type { ExecutionContext } from "hono";
import type { Bindings } from "./env.ts";

/**
 * One client per request: its keeper renews leases under this request's `waitUntil` for up to
 * 20 s after the acquire, then hands longer holds to the Durable Object keeper (LEASE_KEEPER).
 */
export function edgelock(env: Bindings, ctx: ExecutionContext): EdgelockClient {
  return createClient({
    redis: redisFromEnv(env), // { url, token }: no @upstash/redis client needed for the locks
    keeper: waitUntilKeeper({
      waitUntil: ctx,
      handoff: { keeper: keeperFromEnv(env), maxHoldMs: Number(env.MAX_HOLD_MS ?? 600_000) },
    }),
  });
}
