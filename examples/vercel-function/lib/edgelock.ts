import { createClient, type EdgelockClient } from "@edgelock/core";
import { keeperFromEnv, redisFromEnv, vercelKeeper } from "@edgelock/vercel";

/**
 * One client per invocation. Renewals run under `waitUntil` up to the function's deadline; when
 * EDGELOCK_KEEPER_URL is set, longer holds go to the Durable Object keeper over HTTPS.
 */
export function edgelock(): EdgelockClient {
  const handoff = process.env.EDGELOCK_KEEPER_URL
    ? { keeper: keeperFromEnv(), maxHoldMs: 600_000 }
    : undefined;
  return createClient({ redis: redisFromEnv(), keeper: vercelKeeper(handoff ? { handoff } : {}) });
}
