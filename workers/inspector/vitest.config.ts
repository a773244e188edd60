import { defineProject } from "vitest/config";

// Node side: the app runs under @hono/node-server against the harness rest-server; the browser
// test drives Debian's Chromium through playwright-core.
export default defineProject({
  test: {
    name: "inspector",
    include: ["test/**/*.test.ts"],
    globalSetup: ["../../packages/testkit/src/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
