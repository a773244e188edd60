import { defineProject } from "vitest/config";
import { EXCLUDE_UNIT_TESTS } from "../vitest.split.ts";

export default defineProject({
  test: {
    name: "bench",
    include: ["test/**/*.test.ts"],
    exclude: EXCLUDE_UNIT_TESTS,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
