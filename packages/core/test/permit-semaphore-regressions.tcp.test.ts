import { closeAll, harness, makeNodeRedis } from "@edgelock/testkit";
import { afterAll } from "vitest";
import { runPermitSemaphoreRegressions } from "./protocol/permit-semaphore-regressions.ts";

afterAll(closeAll);

runPermitSemaphoreRegressions({
  name: "TCP (node-redis)",
  makeRedis: () => makeNodeRedis(harness().redisUrl),
});
