import { TestkitError } from "./errors.ts";
import type { HarnessEnv } from "./harness-env.ts";
import { startRedis } from "./redis/start-redis.ts";
import { startRestFront } from "./rest-front.ts";

export type EnvVars = Readonly<Record<string, string | undefined>>;

export interface RunningHarness {
  readonly env: HarnessEnv;
  /** Stops everything this harness started (not external endpoints). */
  stop(): Promise<void>;
}

/**
 * Starts what `vars` do not point at: a redis-server unless `REDIS_URL` is set, and a rest-server
 * (faults on) in front of it unless `UPSTASH_REDIS_REST_URL` and `UPSTASH_REDIS_REST_TOKEN` are set.
 * On failure it stops what it already started before rethrowing.
 */
export async function startHarness(vars: EnvVars = process.env): Promise<RunningHarness> {
  const cleanups: (() => Promise<void>)[] = [];
  const stop = () => runCleanups(cleanups);
  try {
    const upstash = upstashFromEnv(vars);
    const givenRedisUrl = nonEmpty(vars["REDIS_URL"]);
    let redisUrl = givenRedisUrl;
    if (redisUrl === undefined) {
      const redis = await startRedis();
      cleanups.push(() => redis.stop());
      redisUrl = redis.url;
    }
    if (upstash) {
      const env = {
        redisUrl,
        restUrl: upstash.url,
        restToken: upstash.token,
        faultsEnabled: false,
        external: true,
      };
      return { env, stop };
    }
    const rest = await startRestFront(redisUrl);
    cleanups.push(() => rest.close());
    const external = givenRedisUrl !== undefined;
    return {
      env: { redisUrl, restUrl: rest.url, restToken: rest.token, faultsEnabled: true, external },
      stop,
    };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}

function upstashFromEnv(vars: EnvVars): { url: string; token: string } | null {
  const url = nonEmpty(vars["UPSTASH_REDIS_REST_URL"]);
  const token = nonEmpty(vars["UPSTASH_REDIS_REST_TOKEN"]);
  if (url === undefined && token === undefined) return null;
  if (url === undefined)
    throw new TestkitError(
      "env",
      "UPSTASH_REDIS_REST_TOKEN is set but UPSTASH_REDIS_REST_URL is missing",
    );
  if (token === undefined)
    throw new TestkitError(
      "env",
      "UPSTASH_REDIS_REST_URL is set but UPSTASH_REDIS_REST_TOKEN is missing",
    );
  return { url, token };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/** Runs every cleanup (last started first), then reports all failures at once. */
async function runCleanups(cleanups: (() => Promise<void>)[]): Promise<void> {
  const errors: unknown[] = [];
  for (const cleanup of cleanups.splice(0).reverse()) {
    await cleanup().catch((error: unknown) => errors.push(error));
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, "harness teardown failed");
}
