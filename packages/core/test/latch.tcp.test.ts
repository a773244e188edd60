import { closeAll, harness, makeNodeRedis } from "@edgelock/testkit";
import { afterAll } from "vitest";
import { runLatchConformance } from "./conformance/latch.conformance.ts";

afterAll(closeAll);

// TCP: node-redis straight to redis-server.
runLatchConformance({
  name: "TCP (node-redis)",
  makeRedis: () => makeNodeRedis(harness().redisUrl),
});
