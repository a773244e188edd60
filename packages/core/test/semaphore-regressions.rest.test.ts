import { Redis } from "@upstash/redis";
import { harness } from "@edgelock/testkit";
import { runSemaphoreRegressions } from "./protocol/semaphore-regressions.ts";

runSemaphoreRegressions({
  name: "REST (@upstash/redis → rest-server)",
  makeRedis: () => {
    const env = harness();
    return new Redis({ url: env.restUrl, token: env.restToken });
  },
});
