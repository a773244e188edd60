import { defineProject } from "vitest/config";
import { EXCLUDE_UNIT_TESTS } from "../../vitest.split.ts";

export default defineProject({
  test: {
    name: "testkit",
    include: ["test/**/*.test.ts"],
    exclude: EXCLUDE_UNIT_TESTS,
    globalSetup: ["./src/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
