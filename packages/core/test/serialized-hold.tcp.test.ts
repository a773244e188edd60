import { closeAll, harness, makeNodeRedis } from "@edgelock/testkit";
import { afterAll } from "vitest";
import { runSerializedHoldConformance } from "./conformance/serialized-hold.conformance.ts";

afterAll(closeAll);

runSerializedHoldConformance({
  name: "TCP (node-redis)",
  makeRedis: () => makeNodeRedis(harness().redisUrl),
});
