import { closeAll, harness, makeNodeRedis } from "@edgelock/testkit";
import { afterAll } from "vitest";
import { runLockRegressions } from "./protocol/lock-regressions.ts";

afterAll(closeAll);

runLockRegressions({
  name: "TCP (node-redis)",
  makeRedis: () => makeNodeRedis(harness().redisUrl),
});
