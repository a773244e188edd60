import { defineProject } from "vitest/config";
import { EXCLUDE_UNIT_TESTS } from "../../vitest.split.ts";

// Node side: builds the Worker with wrangler and runs the bundle in workerd through Miniflare.
export default defineProject({
  test: {
    name: "lease-keeper-worker",
    include: ["test/**/*.test.ts"],
    exclude: EXCLUDE_UNIT_TESTS,
    globalSetup: ["../../packages/testkit/src/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
