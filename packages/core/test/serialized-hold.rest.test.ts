import { Redis } from "@upstash/redis";
import { harness } from "@edgelock/testkit";
import { runSerializedHoldConformance } from "./conformance/serialized-hold.conformance.ts";

runSerializedHoldConformance({
  name: "REST (@upstash/redis → rest-server)",
  makeRedis: () => {
    const env = harness();
    return new Redis({ url: env.restUrl, token: env.restToken });
  },
});
