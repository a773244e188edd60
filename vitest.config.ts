import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { unitProjects } from "./vitest.split.ts";

/** The folders with tests; each has its own vitest.config.{ts,mts} (its integration project). */
const PACKAGES = ["packages/*", "workers/*", "examples/*", "bench", "campaign", "scripts"];

// Two vitest projects per package (vitest.split.ts): `<pkg>:unit` (*.unit.test.ts, no Redis, run
// first) and `<pkg>` (the package's own vitest.config, which says how its integration tests run).
export default defineConfig({
  test: {
    // The tests mostly wait (on Redis, timers, leases), not compute: vitest's default (a worker
    // per core but one) ran them one file at a time on a 2-core machine, 613 s for the suite.
    // Two at a time: 336 s, same results. Four failed a timing-sensitive keeper test.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      ...PACKAGES.map((folder) => `${folder}/vitest.config.{ts,mts}`),
      "campaign/vitest.adversary.config.ts",
      ...unitProjects(PACKAGES),
    ],
  },
});
