import { defineProject } from "vitest/config";
import { EXCLUDE_UNIT_TESTS } from "../../vitest.split.ts";

export default defineProject({
  test: {
    name: "vercel",
    include: ["test/**/*.test.ts"],
    exclude: EXCLUDE_UNIT_TESTS,
    globalSetup: ["../testkit/src/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
