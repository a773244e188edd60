import { closeAll, harness, makeNodeRedis } from "@edgelock/testkit";
import { afterAll } from "vitest";
import { runResumeRegressions } from "./protocol/resume-regressions.ts";

afterAll(closeAll);

runResumeRegressions({
  name: "TCP (node-redis)",
  makeRedis: () => makeNodeRedis(harness().redisUrl),
});
