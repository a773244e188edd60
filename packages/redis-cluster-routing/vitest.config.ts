import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "redis-cluster-routing",
    include: ["test/**/*.test.ts"],
  },
});
