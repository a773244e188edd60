import { defineProject } from "vitest/config";

// Each example runs where it would run: the Workers built by wrangler and served by workerd, the
// Next.js route handler called as Next calls it, the Node job as a process would run it — all
// against the testkit's redis-server and rest-server. (`pnpm check:packs` also builds and runs
// each example copied out of the repository, from the packed packages.)
export default defineProject({
  test: {
    name: "examples",
    include: ["*.test.ts"],
    globalSetup: ["../../packages/testkit/src/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
