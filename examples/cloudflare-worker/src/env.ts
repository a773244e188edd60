import type { DurableObjectNamespaceLike } from "@edgelock/cloudflare";
import type { LockVariables } from "@edgelock/hono";

/** The Worker's bindings (wrangler.jsonc) and secrets (`wrangler secret put`, `.dev.vars` locally). */
export interface Bindings {
  UPSTASH_REDIS_REST_URL: string;
  UPSTASH_REDIS_REST_TOKEN: string;
  EDGELOCK_KEEPER_SECRET: string;
  LEASE_KEEPER: DurableObjectNamespaceLike;
  /** Stops renewing a hold after this long, whoever keeps it. @default "600000" (10 min) */
  MAX_HOLD_MS?: string;
}

export type AppEnv = { Bindings: Bindings; Variables: LockVariables };
