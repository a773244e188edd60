import { defineProject } from "vitest/config";
import { ADVERSARY_TESTS } from "../vitest.split.ts";

// The bounded adversary gate and the mutations: their own stage of `pnpm test`, after the
// integration suites, so their worlds' timings meet only their own load and the stage's wall
// time is what they add to the test command (at most 5 minutes, issue 13).
export default defineProject({
  test: {
    name: "campaign:adversary",
    include: [...ADVERSARY_TESTS],
    testTimeout: 360_000,
    hookTimeout: 600_000,
  },
});
