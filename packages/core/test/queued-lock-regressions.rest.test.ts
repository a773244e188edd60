import { Redis } from "@upstash/redis";
import { harness } from "@edgelock/testkit";
import { QUEUED_PRIMITIVES, runQueuedLockRegressions } from "./protocol/queued-lock-regressions.ts";

for (const primitive of QUEUED_PRIMITIVES) {
  runQueuedLockRegressions(
    {
      name: "REST (@upstash/redis → rest-server)",
      makeRedis: () => {
        const env = harness();
        return new Redis({ url: env.restUrl, token: env.restToken });
      },
    },
    primitive,
  );
}
