import { defineProject } from "vitest/config";
import { ADVERSARY_TESTS, EXCLUDE_UNIT_TESTS } from "../vitest.split.ts";

export default defineProject({
  test: {
    name: "campaign",
    include: ["test/**/*.test.ts"],
    // The adversary gate and mutations are their own project (vitest.adversary.config.ts).
    exclude: [...EXCLUDE_UNIT_TESTS, ...ADVERSARY_TESTS],
    // The campaign starts its own Redis processes and rest-server: no shared harness needed.
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
