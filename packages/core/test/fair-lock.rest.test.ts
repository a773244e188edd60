import { Redis } from "@upstash/redis";
import { harness } from "@edgelock/testkit";
import { runFairLockConformance } from "./conformance/fair-lock.conformance.ts";

runFairLockConformance({
  name: "REST (@upstash/redis → rest-server)",
  makeRedis: () => {
    const env = harness();
    return new Redis({ url: env.restUrl, token: env.restToken });
  },
});
