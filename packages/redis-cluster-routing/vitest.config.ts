import { defineProject } from "vitest/config";
import { EXCLUDE_UNIT_TESTS } from "../../vitest.split.ts";

export default defineProject({
  test: {
    name: "redis-cluster-routing",
    include: ["test/**/*.test.ts"],
    exclude: EXCLUDE_UNIT_TESTS,
  },
});
