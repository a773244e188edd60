import { closeAll, harness, makeNodeRedis } from "@edgelock/testkit";
import { afterAll } from "vitest";
import { runMultiLockRegressions } from "./protocol/multi-lock-regressions.ts";

afterAll(closeAll);

runMultiLockRegressions({
  name: "TCP (node-redis)",
  makeRedis: () => makeNodeRedis(harness().redisUrl),
});
