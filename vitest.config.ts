import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// One vitest project per package; each package's own vitest.config.ts says how it runs.
export default defineConfig({
  test: {
    // The tests mostly wait (on Redis, timers, leases), not compute: vitest's default (a worker
    // per core but one) ran them one file at a time on a 2-core machine, 613 s for the suite.
    // Two at a time: 336 s, same results. Four failed a timing-sensitive keeper test.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      "packages/*/vitest.config.{ts,mts}",
      "workers/*/vitest.config.{ts,mts}",
      "examples/*/vitest.config.{ts,mts}",
      "bench/vitest.config.ts",
      "campaign/vitest.config.ts",
      "scripts/vitest.config.ts",
    ],
  },
});
