import { defineProject } from "vitest/config";

// Tests of the repository's own scripts (check:docs).
export default defineProject({
  test: {
    name: "scripts",
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
