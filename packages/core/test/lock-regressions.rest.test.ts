import { Redis } from "@upstash/redis";
import { harness } from "@edgelock/testkit";
import { runLockRegressions } from "./protocol/lock-regressions.ts";

runLockRegressions({
  name: "REST (@upstash/redis → rest-server)",
  makeRedis: () => {
    const env = harness();
    return new Redis({ url: env.restUrl, token: env.restToken });
  },
});
