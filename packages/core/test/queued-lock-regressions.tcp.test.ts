import { closeAll, harness, makeNodeRedis } from "@edgelock/testkit";
import { afterAll } from "vitest";
import { QUEUED_PRIMITIVES, runQueuedLockRegressions } from "./protocol/queued-lock-regressions.ts";

afterAll(closeAll);

for (const primitive of QUEUED_PRIMITIVES) {
  runQueuedLockRegressions(
    { name: "TCP (node-redis)", makeRedis: () => makeNodeRedis(harness().redisUrl) },
    primitive,
  );
}
