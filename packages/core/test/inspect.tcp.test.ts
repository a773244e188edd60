import { closeAll, harness, makeNodeRedis } from "@edgelock/testkit";
import { afterAll } from "vitest";
import { runInspectConformance } from "./conformance/inspect.conformance.ts";

afterAll(closeAll);

// TCP: node-redis straight to redis-server.
runInspectConformance({
  name: "TCP (node-redis)",
  makeRedis: () => makeNodeRedis(harness().redisUrl),
});
