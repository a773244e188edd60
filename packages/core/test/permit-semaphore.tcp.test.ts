import { closeAll, harness, makeNodeRedis } from "@edgelock/testkit";
import { afterAll } from "vitest";
import { runPermitSemaphoreConformance } from "./conformance/permit-semaphore.conformance.ts";

afterAll(closeAll);

// TCP: node-redis straight to redis-server.
runPermitSemaphoreConformance({
  name: "TCP (node-redis)",
  makeRedis: () => makeNodeRedis(harness().redisUrl),
});
