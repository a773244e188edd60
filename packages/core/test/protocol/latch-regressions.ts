import { keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import { BackendError, resolveBackend, type ClientOptions } from "../../src/index.ts";
import { countDownScript } from "../../src/latch/scripts.generated.ts";
import { delay, makeTestClient } from "../support.ts";
import { smallestRecordTtl } from "./record-ttl.ts";
import { lateCopyBackend, runs } from "./late-copy-backend.ts";
import type { RegressionTarget } from "./lock-regressions.ts";

/**
 * Issue 13 on the CountDownLatch: one `countDown()` is one intent, counted exactly once however
 * the network repeats or delays its copies, and never after it was settled as not applied. The
 * late copies come from a backend wrapper, so REST and TCP see the same reordering.
 */
export function runLatchRegressions(target: RegressionTarget): void {
  describe(`CountDownLatch protocol regressions (issue 13): ${target.name}`, () => {
    const make = async (options: Omit<ClientOptions, "redis"> = {}) => {
      const late = lateCopyBackend(resolveBackend(await target.makeRedis()));
      const t = makeTestClient(late.backend, { prefix: keyPrefix(), ...options });
      return { ...t, late };
    };
    // Small timings; the first test runs at the smallest record TTL its client accepts (c6a5b43
    // took retryWindowMs + 1), so that every record expires within the test.
    const timings = { requestTimeoutMs: 150, retryWindowMs: 300, clockErrorMs: 100 };

    it("a late copy of a countDown that a resend already applied counts once, also after its record expired", async () => {
      // Roomier than `timings`: the resend must land within the retry window, and a CI run at
      // 0b38497, under load, ran out of 300 ms (settled, BackendError) with the copy held back.
      const roomy = { requestTimeoutMs: 400, retryWindowMs: 1_000, clockErrorMs: 100 };
      const ttl = smallestRecordTtl(await target.makeRedis(), roomy);
      const { client, late } = await make({ ...roomy, operationRecordTtlMs: ttl });
      const latch = client.countDownLatch("once");
      expect(await latch.trySetCount(3)).toBe(true);
      // The first copy is held back (its caller sees a timeout); the resend applies.
      late.on(runs(countDownScript), { kind: "hold" });
      expect(await latch.countDown()).toBe(2);
      expect(late.heldCount).toBe(1);
      // Past every record's lifetime: its deadline (within the retry window) plus its TTL.
      await delay(roomy.retryWindowMs + ttl + 500);
      await late.deliver();
      expect(await latch.getCount()).toBe(2);
    });

    it("a duplicate copy delivered at once (response lost) counts once", async () => {
      const { client, late } = await make(timings);
      const latch = client.countDownLatch("dup");
      expect(await latch.trySetCount(3)).toBe(true);
      late.on(runs(countDownScript), { kind: "drop-after" });
      expect(await latch.countDown()).toBe(2);
      expect(await latch.getCount()).toBe(2);
    });

    it("a countDown settled as never applied never applies, however late its copy arrives", async () => {
      const { client, late } = await make(timings);
      const latch = client.countDownLatch("tomb");
      expect(await latch.trySetCount(2)).toBe(true);
      // Every copy held back: the retries run out, and the caller is told it did not count.
      late.on(runs(countDownScript), { kind: "hold" }, 1_000);
      const outcome = await latch.countDown().catch((e: unknown) => e);
      expect(outcome, String(outcome)).toBeInstanceOf(BackendError);
      late.clear();
      expect(late.heldCount).toBeGreaterThanOrEqual(1);
      await late.deliver();
      expect(await latch.getCount()).toBe(2);
      // The caller's recovery (count down again) counts once.
      expect(await latch.countDown()).toBe(1);
    });
  });
}
