import type { Redis } from "@upstash/redis";
import { harness } from "./harness.ts";
import { makeUpstash } from "./make-upstash.ts";
import { makeNodeRedis, type NodeRedisClient } from "./node-redis-clients.ts";

/**
 * A raw client factory per single-server backend, for the conformance suites run against each
 * (the core's test/conformance/suites.ts table; `label` is the backend in the suites' titles).
 */
export type TestBackend =
  | { readonly name: "rest"; readonly label: string; make(): Promise<Redis> }
  | { readonly name: "tcp"; readonly label: string; make(): Promise<NodeRedisClient> };

export type TestBackendName = TestBackend["name"];

/** `rest`: `@upstash/redis` to the harness' REST URL; `tcp`: node-redis to its Redis. Call `make()` inside a test. */
export const BACKENDS: readonly TestBackend[] = Object.freeze([
  {
    name: "rest",
    label: "REST (@upstash/redis → rest-server)",
    make: () => Promise.resolve(makeUpstash(harness())),
  },
  { name: "tcp", label: "TCP (node-redis)", make: () => makeNodeRedis(harness().redisUrl) },
]);
