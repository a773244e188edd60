import { closeAll, harness, makeNodeRedis } from "@edgelock/testkit";
import { afterAll } from "vitest";
import { runLockConformance } from "./conformance/lock.conformance.ts";

afterAll(closeAll);

// TCP: node-redis straight to redis-server.
runLockConformance({
  name: "TCP (node-redis)",
  makeRedis: () => makeNodeRedis(harness().redisUrl),
});
