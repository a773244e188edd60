import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "testkit",
    include: ["test/**/*.test.ts"],
    globalSetup: ["./src/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
