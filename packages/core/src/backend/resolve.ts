import { InvalidArgumentError } from "../errors.ts";
import type { Backend } from "./backend.ts";
import type { NodeRedisLike } from "./node-redis.ts";
import type { NodeRedisClusterLike } from "./node-redis-cluster.ts";
// TCP adapters, or none in a Worker/edge/browser build (package.json `imports`).
import { tcpBackendOf } from "#tcp-backends";
import { validateRestToken, validateRestUrl } from "./rest-url.ts";
import { restBackend, type UpstashRestOptions } from "./upstash-rest.ts";
import { restStreams, type RestStreams } from "./rest-streams.ts";
import { upstashRequesterBackend, type RequesterLike } from "./upstash-requester.ts";

/**
 * An `@upstash/redis` `Redis` client (from `@upstash/redis`, `/cloudflare` or `/fastly`),
 * described by its shape so that edgelock's declarations never import the package. edgelock
 * takes only its URL and token and speaks REST itself (see `resolveBackend`).
 */
export interface UpstashRedisLike {
  readonly evalsha: (...args: never[]) => unknown;
  readonly pipeline: (...args: never[]) => unknown;
}

/**
 * What `createClient({ redis })` accepts: `{ url, token }` of an Upstash REST endpoint (the
 * lightest: no `@upstash/redis` in the bundle), an `@upstash/redis` client, a connected
 * node-redis client or cluster client (TCP), or a ready `Backend`. Structural types only.
 */
export type RedisInput =
  UpstashRestOptions | UpstashRedisLike | NodeRedisLike | NodeRedisClusterLike | Backend;

const ACCEPTED =
  "must be { url, token } of an Upstash REST endpoint, an @upstash/redis client, a connected node-redis client or cluster, or a Backend";

/**
 * Picks the backend for what the caller passed: an `@upstash/redis` `Redis`, `{ url, token }`,
 * a node-redis client or cluster client, or a ready `Backend`. We never run scripts through the
 * caller's Upstash client as configured (auto-pipelining, retries and deserialization are wrong
 * for locks): we take its credentials and speak REST ourselves, or call its raw requester when
 * credentials are not visible. A REST URL is validated here, when the client is made.
 * @throws InvalidArgumentError naming `redis` (or `redis.url`, `redis.token`) for anything else.
 */
export function resolveBackend(redis: RedisInput): Backend {
  return resolveBackendWith(redis, restStreams);
}

/**
 * `resolveBackend` with the REST backend's push given (`restStreams`) or left out (`undefined`:
 * its waiters poll), so that a bundle that never pushes holds none of it.
 */
export function resolveBackendWith(redis: RedisInput, streams: RestStreams | undefined): Backend {
  if (typeof redis !== "object" || redis === null) {
    const got = typeof redis === "string" ? ` (got a string: pass { url, token })` : "";
    throw new InvalidArgumentError("redis", `${ACCEPTED}${got}`);
  }
  const candidate = redis as unknown as Record<string, unknown>;
  if (
    typeof candidate["command"] === "function" &&
    (candidate["kind"] === "rest" || candidate["kind"] === "tcp")
  ) {
    return redis as Backend;
  }
  if ("url" in candidate || "token" in candidate) {
    return restBackend(
      validateRestUrl("redis.url", candidate["url"]),
      validateRestToken("redis.token", candidate["token"]),
      streams,
    );
  }
  const requester = candidate["client"] as Record<string, unknown> | undefined;
  if (requester && typeof requester["request"] === "function") {
    const baseUrl = requester["baseUrl"];
    const auth = (requester["headers"] as Record<string, unknown> | undefined)?.["authorization"];
    if (typeof baseUrl === "string" && typeof auth === "string" && auth.startsWith("Bearer ")) {
      // The client's own URL, checked as ours: `Redis.fromEnv()` with no variables has "".
      const url = validateRestUrl("redis", baseUrl, "the @upstash/redis client's url: ");
      return restBackend(url, auth.slice("Bearer ".length), streams);
    }
    return upstashRequesterBackend(requester as unknown as RequesterLike);
  }
  const tcp = tcpBackendOf(candidate);
  if (tcp !== undefined) return tcp;
  throw new InvalidArgumentError("redis", ACCEPTED);
}
