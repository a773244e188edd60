import { closeAll, harness, makeNodeRedis } from "@edgelock/testkit";
import { afterAll } from "vitest";
import { runReadWriteLockConformance } from "./conformance/read-write-lock.conformance.ts";

afterAll(closeAll);

runReadWriteLockConformance({
  name: "TCP (node-redis)",
  makeRedis: () => makeNodeRedis(harness().redisUrl),
});
