import { InvalidArgumentError } from "../errors.ts";
import type { Backend } from "./backend.ts";
import { nodeRedisBackend, type NodeRedisLike } from "./node-redis.ts";
import {
  isNodeRedisCluster,
  nodeRedisClusterBackend,
  type NodeRedisClusterLike,
} from "./node-redis-cluster.ts";
import { upstashRestBackend } from "./upstash-rest.ts";
import { upstashRequesterBackend, type RequesterLike } from "./upstash-requester.ts";

/** What `createClient({ redis })` accepts. */
export type RedisInput = Backend | { readonly url: string; readonly token: string } | object;

/**
 * Picks the backend for what the caller passed: an `@upstash/redis` `Redis`, `{ url, token }`,
 * a node-redis client or cluster client, or a ready `Backend`. We never run scripts through the
 * caller's Upstash client as configured (auto-pipelining, retries and deserialization are wrong
 * for locks): we take its credentials and speak REST ourselves, or call its raw requester when
 * credentials are not visible.
 */
export function resolveBackend(redis: unknown): Backend {
  if (typeof redis !== "object" || redis === null) {
    throw new InvalidArgumentError(
      "redis",
      "must be an @upstash/redis client, a node-redis client or { url, token }",
    );
  }
  const candidate = redis as Record<string, unknown>;
  if (
    typeof candidate["command"] === "function" &&
    (candidate["kind"] === "rest" || candidate["kind"] === "tcp")
  ) {
    return redis as Backend;
  }
  if (typeof candidate["url"] === "string" && typeof candidate["token"] === "string") {
    return upstashRestBackend({ url: candidate["url"], token: candidate["token"] });
  }
  const requester = candidate["client"] as Record<string, unknown> | undefined;
  if (requester && typeof requester["request"] === "function") {
    const baseUrl = requester["baseUrl"];
    const auth = (requester["headers"] as Record<string, unknown> | undefined)?.["authorization"];
    if (typeof baseUrl === "string" && typeof auth === "string" && auth.startsWith("Bearer ")) {
      return upstashRestBackend({ url: baseUrl, token: auth.slice("Bearer ".length) });
    }
    return upstashRequesterBackend(requester as unknown as RequesterLike);
  }
  // Before the single-node test: a cluster client has a `sendCommand` too, with the key apart.
  if (isNodeRedisCluster(candidate)) return nodeRedisClusterBackend(redis as NodeRedisClusterLike);
  if (typeof candidate["sendCommand"] === "function")
    return nodeRedisBackend(redis as NodeRedisLike);
  throw new InvalidArgumentError(
    "redis",
    "must be an @upstash/redis client, a node-redis client or { url, token }",
  );
}
