import { Redis } from "@upstash/redis";
import { harness } from "@edgelock/testkit";
import { runPermitSemaphoreRegressions } from "./protocol/permit-semaphore-regressions.ts";

runPermitSemaphoreRegressions({
  name: "REST (@upstash/redis → rest-server)",
  makeRedis: () => {
    const env = harness();
    return new Redis({ url: env.restUrl, token: env.restToken });
  },
});
