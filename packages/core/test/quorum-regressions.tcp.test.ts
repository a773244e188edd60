import { closeAll, harness, makeNodeRedis } from "@edgelock/testkit";
import { afterAll } from "vitest";
import { runQuorumRegressions } from "./protocol/quorum-regressions.ts";

afterAll(closeAll);

runQuorumRegressions({
  name: "TCP (node-redis)",
  makeRedis: () => makeNodeRedis(harness().redisUrl),
});
