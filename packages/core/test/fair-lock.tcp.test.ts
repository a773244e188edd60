import { closeAll, harness, makeNodeRedis } from "@edgelock/testkit";
import { afterAll } from "vitest";
import { runFairLockConformance } from "./conformance/fair-lock.conformance.ts";

afterAll(closeAll);

runFairLockConformance({
  name: "TCP (node-redis)",
  makeRedis: () => makeNodeRedis(harness().redisUrl),
});
