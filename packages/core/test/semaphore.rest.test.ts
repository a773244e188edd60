import { Redis } from "@upstash/redis";
import { harness } from "@edgelock/testkit";
import { runSemaphoreConformance } from "./conformance/semaphore.conformance.ts";

// REST: the real @upstash/redis client, pointed at the rest-server (or Upstash when configured).
runSemaphoreConformance({
  name: "REST (@upstash/redis → rest-server)",
  makeRedis: () => {
    const env = harness();
    return new Redis({ url: env.restUrl, token: env.restToken });
  },
});
