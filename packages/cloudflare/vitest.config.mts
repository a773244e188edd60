import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";
import { EXCLUDE_UNIT_TESTS } from "../../vitest.split.ts";

// Runs inside workerd. The testkit's global setup (Node) starts redis-server + rest-server; the
// Worker reaches the rest-server on 127.0.0.1 through the bindings below.
export default defineProject({
  plugins: [
    cloudflareTest(({ inject }) => {
      const h = inject("edgelock");
      return {
        main: "./test/fixtures/worker.ts",
        miniflare: {
          compatibilityDate: "2026-04-01",
          compatibilityFlags: ["nodejs_compat"],
          bindings: {
            UPSTASH_REDIS_REST_URL: h.restUrl,
            UPSTASH_REDIS_REST_TOKEN: h.restToken,
            EDGELOCK_KEEPER_SECRET: "test-secret-0123456789",
            REST_FAULTS: h.faultsEnabled ? "1" : "",
          },
          durableObjects: { LEASE_KEEPER: "LeaseKeeper" },
        },
      };
    }),
  ],
  resolve: {
    // The testkit's entry starts processes (Node only); inside workerd the suites need only its
    // recorder, key prefixes and harness(): a shim re-exports those from their own files.
    alias: {
      "@edgelock/testkit": fileURLToPath(
        new URL("./test/workerd/testkit-shim.ts", import.meta.url),
      ),
    },
  },
  test: {
    name: "cloudflare",
    include: ["test/**/*.test.ts"],
    exclude: EXCLUDE_UNIT_TESTS,
    globalSetup: ["../testkit/src/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
