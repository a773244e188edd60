import type { Backend } from "./backend.ts";
import { nodeRedisBackend, type NodeRedisLike } from "./node-redis.ts";
import {
  isNodeRedisCluster,
  nodeRedisClusterBackend,
  type NodeRedisClusterLike,
} from "./node-redis-cluster.ts";

/**
 * The TCP backends `resolveBackend` picks by shape: a node-redis cluster client, a node-redis
 * client, or undefined for anything else. Reached through `#tcp-backends` (package.json
 * `imports`), which a Worker or browser build resolves to `tcp-backends.edge.ts` instead, so a
 * Worker that passes `{ url, token }` ships no TCP or cluster-routing code.
 */
export function tcpBackendOf(candidate: Record<string, unknown>): Backend | undefined {
  // Before the single-node test: a cluster client has a `sendCommand` too, with the key apart.
  if (isNodeRedisCluster(candidate))
    return nodeRedisClusterBackend(candidate as unknown as NodeRedisClusterLike);
  if (typeof candidate["sendCommand"] === "function")
    return nodeRedisBackend(candidate as unknown as NodeRedisLike);
  return undefined;
}
