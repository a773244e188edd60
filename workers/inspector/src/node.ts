/**
 * Runs the inspector on Node (against the rest-server, or Upstash itself):
 *   UPSTASH_REDIS_REST_URL=… UPSTASH_REDIS_REST_TOKEN=… INSPECTOR_TOKEN=… node --import tsx src/node.ts
 * Optional: EDGELOCK_PREFIX, PORT (default 8788), HOST (default 127.0.0.1).
 */
import { serve } from "@hono/node-server";
import { createInspectorApp } from "./app.ts";

const env = process.env;
for (const name of ["UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN", "INSPECTOR_TOKEN"]) {
  if (!env[name]) {
    console.error(`edgelock inspector: set ${name}`);
    process.exit(2);
  }
}
const app = createInspectorApp({
  redis: { url: env["UPSTASH_REDIS_REST_URL"] ?? "", token: env["UPSTASH_REDIS_REST_TOKEN"] ?? "" },
  token: env["INSPECTOR_TOKEN"] ?? "",
  ...(env["EDGELOCK_PREFIX"] ? { prefix: env["EDGELOCK_PREFIX"] } : {}),
});
const port = Number(env["PORT"] ?? 8788);
const hostname = env["HOST"] ?? "127.0.0.1";
serve({ fetch: app.fetch, port, hostname }, (info) =>
  console.log(`edgelock inspector on http://${hostname}:${info.port}`),
);
