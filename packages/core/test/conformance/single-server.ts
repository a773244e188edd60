import { BACKENDS, closeAll, type TestBackendName } from "@edgelock/testkit";
import { afterAll } from "vitest";
import { runSuites, type SuiteGroup } from "./suites.ts";

/**
 * One group of the suite table on one of the testkit's single-server backends (REST through the
 * real @upstash/redis client to the rest-server, or TCP through node-redis to redis-server).
 */
export async function runOnSingleServer(name: TestBackendName, group: SuiteGroup): Promise<void> {
  const backend = BACKENDS.find((b) => b.name === name)!;
  afterAll(closeAll);
  await runSuites(name, group, { name: backend.label, makeRedis: () => backend.make() });
}
