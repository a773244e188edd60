import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "cli",
    include: ["test/**/*.test.ts"],
    globalSetup: ["../testkit/src/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
