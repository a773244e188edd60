import { randomRunScope, scopeKeyPrefixes } from "@edgelock/testkit";
import { Redis } from "@upstash/redis";
import type { SuiteTarget } from "./suites.ts";

// The `upstash-live` column of the suite table: the core's suites through the real @upstash/redis
// client against a real Upstash database, named by two variables of their own (the harness reads
// UPSTASH_REDIS_REST_* to point the `rest` column elsewhere; these never change what it does).

export const LIVE_URL_VAR = "EDGELOCK_LIVE_UPSTASH_URL";
export const LIVE_TOKEN_VAR = "EDGELOCK_LIVE_UPSTASH_TOKEN";

export interface LiveCredentials {
  readonly url: string;
  readonly token: string;
}

/** The database to run against, or why the live suites are skipped. */
export type LiveDatabase = { readonly credentials: LiveCredentials } | { readonly skip: string };

/** Thrown when only one of the two variables is set: a half-set run is a mistake, not a skip. */
export class LiveEnvError extends Error {
  override readonly name = "LiveEnvError";
  constructor(
    /** The variable that is missing. */
    readonly variable: string,
  ) {
    super(`${variable} is not set, but ${otherVar(variable)} is: set both to run the live suites`);
  }
}

const otherVar = (variable: string) => (variable === LIVE_URL_VAR ? LIVE_TOKEN_VAR : LIVE_URL_VAR);

/**
 * Reads the live database from `env` (default `process.env`): both variables set, or neither
 * (a named skip). Blank values count as unset.
 * @throws LiveEnvError naming the missing variable when only one is set.
 */
export function liveDatabaseFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): LiveDatabase {
  const url = env[LIVE_URL_VAR]?.trim() || undefined;
  const token = env[LIVE_TOKEN_VAR]?.trim() || undefined;
  if (url === undefined && token === undefined) {
    return {
      skip: `no real Upstash database given: set ${LIVE_URL_VAR} and ${LIVE_TOKEN_VAR} to run it`,
    };
  }
  if (url === undefined) throw new LiveEnvError(LIVE_URL_VAR);
  if (token === undefined) throw new LiveEnvError(LIVE_TOKEN_VAR);
  return { credentials: { url, token } };
}

/** One run of the suites against a live database: every key under `scope`, removed by `cleanup`. */
export interface LiveRun {
  readonly target: SuiteTarget;
  /** What every key prefix of this test file now starts with (`live-<12 random>-`). */
  readonly scope: string;
  /** Removes every key under `scope` (SCAN MATCH + DEL); resolves the number removed. */
  cleanup(): Promise<number>;
}

const SCAN_COUNT = 1_000;

/**
 * Scopes this test file's key prefixes to a run of its own and returns the suite target. Call at
 * the top level of the test file, before the suites register. The client is the one users make,
 * `new Redis({ url, token })` with the library's defaults, as the `rest` column's is.
 */
export function startLiveRun(credentials: LiveCredentials, scope = randomRunScope()): LiveRun {
  scopeKeyPrefixes(scope);
  const make = () => new Redis({ url: credentials.url, token: credentials.token });
  return {
    scope,
    target: {
      name: "Upstash live (@upstash/redis → EDGELOCK_LIVE_UPSTASH_URL)",
      makeRedis: () => make(),
    },
    cleanup: () => removeScope(make(), scope),
  };
}

async function removeScope(redis: Redis, scope: string): Promise<number> {
  // The scope holds no glob character (scopeKeyPrefixes refuses one), so MATCH takes it literally.
  let cursor = "0";
  let removed = 0;
  do {
    const [next, keys] = await redis.scan(cursor, { match: `${scope}*`, count: SCAN_COUNT });
    cursor = String(next);
    if (keys.length > 0) removed += await redis.del(...keys);
  } while (cursor !== "0");
  return removed;
}
