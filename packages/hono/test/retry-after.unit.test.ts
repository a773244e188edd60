import { AcquireTimeoutError, type Lock } from "@edgelock/core";
import { describe, expect, it } from "vitest";
import { busyHintOf, expectedFreeInMs } from "../src/retry-after.ts";

// The estimate behind the 423's Retry-After. The lock stands in only for `remainingMs()` (the
// middleware's fallback); the integration tests in lock-middleware.test.ts use a real Redis.
const lockWithRemaining = (ms: number) => ({ remainingMs: async () => ms }) as unknown as Lock;
const timeout = (hint?: object) =>
  Object.assign(new AcquireTimeoutError("job:k", 150, 2), hint && { hint });

describe("expectedFreeInMs", () => {
  it("without a busy answer on the error: the holder's remaining lease", async () => {
    expect(await expectedFreeInMs(lockWithRemaining(7_250), timeout())).toBe(7_250);
  });

  it("with hold statistics: the rest of a typical hold, plus a cycle per waiter ahead", async () => {
    const hint = { remainingLeaseMs: 28_000, position: 3, meanHoldMs: 400, holdAgeMs: 150 };
    // 250 ms left of a typical 400 ms hold, then two waiters ahead at one mean hold each
    expect(await expectedFreeInMs(lockWithRemaining(28_000), timeout(hint))).toBe(250 + 2 * 400);
    expect(
      await expectedFreeInMs(lockWithRemaining(28_000), timeout({ ...hint, meanCycleMs: 500 })),
    ).toBe(250 + 2 * 500);
  });

  it("never counts the current hold past the holder's remaining lease", async () => {
    const hint = { remainingLeaseMs: 300, position: 1, meanHoldMs: 5_000, holdAgeMs: 100 };
    expect(await expectedFreeInMs(lockWithRemaining(300), timeout(hint))).toBe(300);
  });

  it("a hold older than the typical one may end any moment", async () => {
    const hint = { remainingLeaseMs: 20_000, position: 1, meanHoldMs: 200, holdAgeMs: 9_000 };
    expect(await expectedFreeInMs(lockWithRemaining(20_000), timeout(hint))).toBe(0);
  });

  it("with a busy answer but no statistics yet: its remaining lease, no extra request", async () => {
    const hint = { remainingLeaseMs: 4_000, position: 0, meanHoldMs: 0, holdAgeMs: 0 };
    expect(await expectedFreeInMs(lockWithRemaining(-1), timeout(hint))).toBe(4_000);
  });

  it("ignores a malformed hint", () => {
    expect(busyHintOf({ hint: "soon" })).toBeUndefined();
    expect(busyHintOf(null)).toBeUndefined();
    expect(busyHintOf({ hint: { meanHoldMs: Number.NaN } })).toMatchObject({ meanHoldMs: 0 });
  });
});
