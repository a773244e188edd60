import { closeAll, harness, makeNodeRedis } from "@edgelock/testkit";
import { afterAll } from "vitest";
import { runSemaphoreConformance } from "./conformance/semaphore.conformance.ts";

afterAll(closeAll);

// TCP: node-redis straight to redis-server.
runSemaphoreConformance({
  name: "TCP (node-redis)",
  makeRedis: () => makeNodeRedis(harness().redisUrl),
});
