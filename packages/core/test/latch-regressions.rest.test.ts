import { Redis } from "@upstash/redis";
import { harness } from "@edgelock/testkit";
import { runLatchRegressions } from "./protocol/latch-regressions.ts";

runLatchRegressions({
  name: "REST (@upstash/redis → rest-server)",
  makeRedis: () => {
    const env = harness();
    return new Redis({ url: env.restUrl, token: env.restToken });
  },
});
