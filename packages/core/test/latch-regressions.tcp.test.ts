import { closeAll, harness, makeNodeRedis } from "@edgelock/testkit";
import { afterAll } from "vitest";
import { runLatchRegressions } from "./protocol/latch-regressions.ts";

afterAll(closeAll);

runLatchRegressions({
  name: "TCP (node-redis)",
  makeRedis: () => makeNodeRedis(harness().redisUrl),
});
