import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "campaign",
    include: ["test/**/*.test.ts"],
    // The campaign starts its own Redis processes and rest-server: no shared harness needed.
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
