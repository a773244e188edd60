import { Redis } from "@upstash/redis/cloudflare";
import { env } from "cloudflare:test";
import { runLockConformance } from "../../core/test/conformance/lock.conformance.ts";

// The core's Lock conformance suite, inside workerd: the edge path users run in production.
runLockConformance({
  name: "workerd (@upstash/redis/cloudflare → rest-server)",
  makeRedis: () =>
    new Redis({ url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN }),
});
