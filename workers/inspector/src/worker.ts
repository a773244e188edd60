import type { ExecutionContext, Hono } from "hono";
import { createInspectorApp } from "./app.ts";
import type { AppEnv } from "./env.ts";

/** The Worker's bindings: secrets set with `wrangler secret put`. */
export interface InspectorWorkerEnv {
  readonly UPSTASH_REDIS_REST_URL?: string;
  readonly UPSTASH_REDIS_REST_TOKEN?: string;
  readonly INSPECTOR_TOKEN?: string;
  readonly EDGELOCK_PREFIX?: string;
}

let cached: { key: string; app: Hono<AppEnv> } | undefined;

/** Builds the app once per isolate (again if the bindings change), with a message naming any missing binding. */
function appFor(env: InspectorWorkerEnv): Hono<AppEnv> {
  for (const name of [
    "UPSTASH_REDIS_REST_URL",
    "UPSTASH_REDIS_REST_TOKEN",
    "INSPECTOR_TOKEN",
  ] as const) {
    if (!env[name])
      throw new Error(
        `edgelock inspector: the binding ${name} is missing (wrangler secret put ${name})`,
      );
  }
  const key = [
    env.UPSTASH_REDIS_REST_URL,
    env.UPSTASH_REDIS_REST_TOKEN,
    env.INSPECTOR_TOKEN,
    env.EDGELOCK_PREFIX,
  ].join("\n");
  if (cached?.key !== key) {
    const redis = {
      url: env.UPSTASH_REDIS_REST_URL ?? "",
      token: env.UPSTASH_REDIS_REST_TOKEN ?? "",
    };
    const prefix = env.EDGELOCK_PREFIX ? { prefix: env.EDGELOCK_PREFIX } : {};
    cached = {
      key,
      app: createInspectorApp({ redis, token: env.INSPECTOR_TOKEN ?? "", ...prefix }),
    };
  }
  return cached.app;
}

export default {
  fetch(
    request: Request,
    env: InspectorWorkerEnv,
    ctx: ExecutionContext,
  ): Response | Promise<Response> {
    try {
      return appFor(env).fetch(request, env, ctx);
    } catch (error) {
      return new Response(error instanceof Error ? error.message : String(error), { status: 500 });
    }
  },
};
