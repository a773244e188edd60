import { InvalidArgumentError } from "../errors.ts";
import type { Backend } from "./backend.ts";

/**
 * `#tcp-backends` in Workers, Vercel Edge and browsers (the `workerd`, `edge-light`, `worker`
 * and `browser` conditions): no TCP adapters, so they cost a REST Worker nothing. A node-redis
 * client passed there is told how to get one, rather than mistaken for something else.
 */
export function tcpBackendOf(candidate: Record<string, unknown>): Backend | undefined {
  if (typeof candidate["sendCommand"] !== "function") return undefined;
  throw new InvalidArgumentError(
    "redis",
    "is a node-redis client, and this runtime's build of @edgelock/core (a Worker, edge or browser bundle) leaves TCP out: pass { url, token } of an Upstash REST endpoint, or wrap the client yourself with nodeRedisBackend() or nodeRedisClusterBackend() from @edgelock/core",
  );
}
