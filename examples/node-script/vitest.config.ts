import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "example-node-script",
    include: ["test/**/*.test.ts"],
    globalSetup: ["../../packages/testkit/src/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
