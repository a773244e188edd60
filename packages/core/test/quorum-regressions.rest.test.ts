import { Redis } from "@upstash/redis";
import { harness } from "@edgelock/testkit";
import { runQuorumRegressions } from "./protocol/quorum-regressions.ts";

runQuorumRegressions({
  name: "REST (@upstash/redis → rest-server)",
  makeRedis: () => {
    const env = harness();
    return new Redis({ url: env.restUrl, token: env.restToken });
  },
});
