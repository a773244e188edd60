import { closeAll, harness, makeNodeRedis } from "@edgelock/testkit";
import { afterAll } from "vitest";
import { runSemaphoreRegressions } from "./protocol/semaphore-regressions.ts";

afterAll(closeAll);

runSemaphoreRegressions({
  name: "TCP (node-redis)",
  makeRedis: () => makeNodeRedis(harness().redisUrl),
});
