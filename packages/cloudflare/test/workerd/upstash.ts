import { Redis } from "@upstash/redis/cloudflare";
import { env } from "cloudflare:test";

/** The name every conformance suite run in workerd carries in its `describe` title. */
export const WORKERD_TARGET = "workerd (@upstash/redis/cloudflare → rest-server)";

/** A Redis connection as a Worker makes one: `@upstash/redis/cloudflare` over `fetch` to the rest-server. */
export function workerdRedis(): Redis {
  return new Redis({ url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN });
}
