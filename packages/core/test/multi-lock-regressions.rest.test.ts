import { Redis } from "@upstash/redis";
import { harness } from "@edgelock/testkit";
import { runMultiLockRegressions } from "./protocol/multi-lock-regressions.ts";

runMultiLockRegressions({
  name: "REST (@upstash/redis → rest-server)",
  makeRedis: () => {
    const env = harness();
    return new Redis({ url: env.restUrl, token: env.restToken });
  },
});
