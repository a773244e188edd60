import type { TestProject } from "vitest/node";
import { HARNESS_KEY } from "./harness-env.ts";
import { startHarness } from "./start-harness.ts";

/**
 * Vitest global setup: one redis-server and one rest-server (faults on) per project run, or the
 * endpoints named by `REDIS_URL` / `UPSTASH_REDIS_REST_URL` + `UPSTASH_REDIS_REST_TOKEN`.
 * Tests read them with `harness()`. The returned teardown stops what was started; if the run
 * dies instead, the process registry's exit and signal handlers kill the redis-server.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const running = await startHarness(process.env);
  project.provide(HARNESS_KEY, running.env);
  return running.stop;
}
