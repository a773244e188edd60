import { Redis } from "@upstash/redis";
import { harness } from "@edgelock/testkit";
import { runResumeRegressions } from "./protocol/resume-regressions.ts";

runResumeRegressions({
  name: "REST (@upstash/redis → rest-server)",
  makeRedis: () => {
    const env = harness();
    return new Redis({ url: env.restUrl, token: env.restToken });
  },
});
