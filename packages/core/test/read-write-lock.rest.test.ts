import { Redis } from "@upstash/redis";
import { harness } from "@edgelock/testkit";
import { runReadWriteLockConformance } from "./conformance/read-write-lock.conformance.ts";

runReadWriteLockConformance({
  name: "REST (@upstash/redis → rest-server)",
  makeRedis: () => {
    const env = harness();
    return new Redis({ url: env.restUrl, token: env.restToken });
  },
});
