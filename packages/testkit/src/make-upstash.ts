import { Redis, type RedisConfigNodejs } from "@upstash/redis";
import type { HarnessEnv } from "./harness-env.ts";
import { harness } from "./harness.ts";

export type MakeUpstashOptions = Omit<RedisConfigNodejs, "url" | "token">;

/**
 * An `@upstash/redis` `Redis` to the harness' REST endpoint (the default `harness()` must run
 * inside a test). Options pass through unchanged: its retries and auto-deserialisation are the
 * library's defaults unless the caller sets them.
 */
export function makeUpstash(env: HarnessEnv = harness(), options: MakeUpstashOptions = {}): Redis {
  return new Redis({ ...options, url: env.restUrl, token: env.restToken });
}
