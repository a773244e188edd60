import { defineConfig } from "vitest/config";

// One vitest project per package; each package's own vitest.config.ts says how it runs.
export default defineConfig({
  test: {
    projects: [
      "packages/*/vitest.config.{ts,mts}",
      "workers/*/vitest.config.{ts,mts}",
      "examples/*/vitest.config.{ts,mts}",
      "bench/vitest.config.ts",
      "campaign/vitest.config.ts",
      "scripts/vitest.config.ts",
    ],
  },
});
