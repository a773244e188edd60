import { expect } from "vitest";
import { createClient, type RedisInput } from "../../src/index.ts";
import { RECORD_MARGIN_SLACK_MS } from "../../src/client-options.ts";

interface Timings {
  readonly requestTimeoutMs: number;
  readonly retryWindowMs: number;
  readonly clockErrorMs: number;
}

/**
 * The smallest `operationRecordTtlMs` a client with these timings accepts (issue 13, finding 6:
 * c6a5b43 took `retryWindowMs + 1`), checked against validation itself: accepted, and one less
 * refused. The regressions run at it, so every record expires within the test.
 */
export function smallestRecordTtl(redis: RedisInput, t: Timings): number {
  const floor = t.retryWindowMs + t.requestTimeoutMs + 2 * t.clockErrorMs + RECORD_MARGIN_SLACK_MS;
  expect(() => createClient({ redis, ...t, operationRecordTtlMs: floor })).not.toThrow();
  expect(() => createClient({ redis, ...t, operationRecordTtlMs: floor - 1 })).toThrow(
    /operationRecordTtlMs/,
  );
  return floor;
}
