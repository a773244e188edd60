import { keeperFromEnv, redisFromEnv, waitUntilKeeper } from "@edgelock/cloudflare";
import { createClient, type EdgelockClient } from "@edgelock/core";
import type { Context } from "hono";
import type { AppEnv } from "./env.ts";

/**
 * One client per request: its keeper renews under this request's `waitUntil` for up to 20 s
 * after the acquire, then hands long holds to the Durable Object keeper (bound as LEASE_KEEPER).
 */
export function edgelock(c: Context<AppEnv>): EdgelockClient {
  return createClient({
    redis: redisFromEnv(c.env),
    keeper: waitUntilKeeper({
      waitUntil: c.executionCtx,
      handoff: { keeper: keeperFromEnv(c.env), maxHoldMs: Number(c.env.MAX_HOLD_MS ?? 600_000) },
    }),
  });
}
