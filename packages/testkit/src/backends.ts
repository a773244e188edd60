import type { Redis } from "@upstash/redis";
import { harness } from "./harness.ts";
import { makeUpstash } from "./make-upstash.ts";
import { makeNodeRedis, type NodeRedisClient } from "./node-redis-clients.ts";

/** A raw client factory per backend, for conformance suites run against each. */
export type TestBackend =
  | { readonly name: "rest"; make(): Promise<Redis> }
  | { readonly name: "tcp"; make(): Promise<NodeRedisClient> };

export type TestBackendName = TestBackend["name"];

/** `rest`: `@upstash/redis` to the harness' REST URL; `tcp`: node-redis to its Redis. Call `make()` inside a test. */
export const BACKENDS: readonly TestBackend[] = Object.freeze([
  { name: "rest", make: () => Promise.resolve(makeUpstash(harness())) },
  { name: "tcp", make: () => makeNodeRedis(harness().redisUrl) },
]);
