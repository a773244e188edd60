import { Hono } from "hono";
import { createClient, inspect } from "@edgelock/core";
import { apiRoutes } from "./api-routes.ts";
import type { AppEnv } from "./env.ts";
import { onError } from "./errors.ts";
import { loginRoutes } from "./login-routes.ts";
import { baseMiddleware } from "./middleware.ts";
import { resolveInspectorOptions, type InspectorAppOptions } from "./options.ts";
import { pageRoutes } from "./page-routes.ts";

/**
 * The inspector as a hono app: `app.fetch` serves it in a Worker, `@hono/node-server` on Node.
 * @example
 * const app = createInspectorApp({ redis: { url, token: restToken }, token: env.INSPECTOR_TOKEN });
 * export default { fetch: app.fetch };
 */
export function createInspectorApp(options: InspectorAppOptions): Hono<AppEnv> {
  const o = resolveInspectorOptions(options);
  const deps = {
    inspector: inspect(createClient({ redis: o.redis, prefix: o.prefix })),
    options: o,
  };
  const app = new Hono<AppEnv>();
  app.use(baseMiddleware(o.token));
  app.onError(onError);
  app.get("/healthz", (c) => c.text("ok"));
  loginRoutes(app, deps);
  apiRoutes(app, deps);
  pageRoutes(app, deps);
  return app;
}
