import { afterAll, describe, it } from "vitest";
import { runSuites } from "./conformance/suites.ts";
import { liveDatabaseFromEnv, startLiveRun } from "./conformance/upstash-live.ts";

// The suite table's `upstash-live` column: the conformance rows (request-count pins included:
// they count at the client's backend, one HTTP request per command) through the real
// @upstash/redis client against the database named by EDGELOCK_LIVE_UPSTASH_URL and
// EDGELOCK_LIVE_UPSTASH_TOKEN, every key under a scope of this run, removed at the end. The
// other groups' cells say why they do not run live. Without credentials: one named skip.
// upstash-live-loader.test.ts runs this wiring against the local rest-server in every run.
const live = liveDatabaseFromEnv();

if ("skip" in live) {
  describe("conformance: upstash-live", () => {
    it.skip(`not run: ${live.skip}`, () => undefined);
  });
} else {
  const run = startLiveRun(live.credentials);
  afterAll(async () => {
    const removed = await run.cleanup();
    console.info(`upstash-live: removed ${removed} keys under ${run.scope}`);
  }, 120_000);
  for (const group of ["conformance", "regressions", "quorum"] as const)
    await runSuites("upstash-live", group, run.target);
}
