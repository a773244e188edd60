import { closeAll, harness, makeNodeRedis } from "@edgelock/testkit";
import { afterAll } from "vitest";
import { runMultiLockConformance } from "./conformance/multi-lock.conformance.ts";

afterAll(closeAll);

// TCP: node-redis straight to redis-server.
runMultiLockConformance({
  name: "TCP (node-redis)",
  makeRedis: () => makeNodeRedis(harness().redisUrl),
});
