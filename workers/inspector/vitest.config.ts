import { defineProject } from "vitest/config";
import { EXCLUDE_UNIT_TESTS } from "../../vitest.split.ts";

// Node side: the app runs under @hono/node-server against the harness rest-server; the browser
// test drives Debian's Chromium through playwright-core.
export default defineProject({
  test: {
    name: "inspector",
    include: ["test/**/*.test.ts"],
    exclude: EXCLUDE_UNIT_TESTS,
    globalSetup: ["../../packages/testkit/src/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
