import { Redis } from "@upstash/redis";
import { harness } from "@edgelock/testkit";
import { runInspectConformance } from "./conformance/inspect.conformance.ts";

// REST: the real @upstash/redis client, pointed at the rest-server (SCAN and the describe script over HTTP).
runInspectConformance({
  name: "REST (@upstash/redis → rest-server)",
  makeRedis: () => {
    const env = harness();
    return new Redis({ url: env.restUrl, token: env.restToken });
  },
});
