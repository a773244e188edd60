import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";
import { EXCLUDE_UNIT_TESTS } from "../../vitest.split.ts";

// The middleware is tested where it runs: a hono app as the Worker, inside workerd, against the
// rest-server the testkit's global setup started (reached on 127.0.0.1 through the bindings).
export default defineProject({
  plugins: [
    cloudflareTest(({ inject }) => ({
      main: "./test/fixtures/app.ts",
      miniflare: {
        compatibilityDate: "2026-04-01",
        compatibilityFlags: ["nodejs_compat"],
        bindings: {
          UPSTASH_REDIS_REST_URL: inject("edgelock").restUrl,
          UPSTASH_REDIS_REST_TOKEN: inject("edgelock").restToken,
        },
      },
    })),
  ],
  resolve: {
    alias: {
      "@edgelock/testkit": fileURLToPath(
        new URL("./test/workerd/testkit-shim.ts", import.meta.url),
      ),
    },
  },
  test: {
    name: "hono",
    include: ["test/**/*.test.ts"],
    exclude: EXCLUDE_UNIT_TESTS,
    globalSetup: ["../testkit/src/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
