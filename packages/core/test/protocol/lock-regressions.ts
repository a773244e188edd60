import { keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import {
  BackendError,
  createClient,
  InvalidArgumentError,
  LockError,
  resolveBackend,
  type ClientOptions,
  type RedisInput,
} from "../../src/index.ts";
import { acquireScript, extendScript } from "../../src/lock/scripts.generated.ts";
import { delay, makeTestClient } from "../support.ts";
import { lateCopyBackend, runs } from "./late-copy-backend.ts";
import { smallestRecordTtl } from "./record-ttl.ts";

export interface RegressionTarget {
  readonly name: string;
  makeRedis(): RedisInput | Promise<RedisInput>;
}

/** Polls `ready` every 5 ms; fails the test instead of hanging. */
async function until(ready: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > end) throw new Error(`condition not reached within ${ms} ms`);
    await delay(5);
  }
}

/**
 * Issue 13's findings on the Lock, each as it was reproduced against c6a5b43 (where these fail):
 * the late copies come from a backend wrapper, so REST and TCP see the same reordering.
 */
export function runLockRegressions(target: RegressionTarget): void {
  describe(`Lock protocol regressions (issue 13): ${target.name}`, () => {
    const make = async (options: Omit<ClientOptions, "redis"> = {}) => {
      const late = lateCopyBackend(resolveBackend(await target.makeRedis()));
      const t = makeTestClient(late.backend, { prefix: keyPrefix(), ...options });
      return { ...t, late };
    };

    it("finding 1: a late copy of a busy try-once acquire never grants after the caller moved on", async () => {
      const { client, late } = await make({ requestTimeoutMs: 200 });
      const holder = await client.lock("f1").acquire({ leaseMs: 10_000 });
      const owner = "late-owner-of-f1-try";
      const handle = client.lock("f1", { owner });
      late.on(runs(acquireScript, owner), { kind: "hold" });
      // Not acquired either way: busy (a resend answered), or settled as never applied.
      const outcome = await handle.tryAcquire().catch((e: unknown) => e);
      expect(outcome === null || outcome instanceof BackendError, String(outcome)).toBe(true);
      await holder.release();
      expect(late.heldCount).toBe(1);
      await late.deliver();
      expect(await client.lock("f1").isLocked()).toBe(false);
      const next = await handle.acquire();
      expect(await handle.holdCount()).toBe(1);
      await next.release();
      expect(await client.lock("f1").isLocked()).toBe(false);
    });

    it("finding 1: a late copy of a busy poll never grants after the waiter went on under new ids", async () => {
      const { client, late } = await make({ requestTimeoutMs: 200 });
      const holder = await client.lock("f1w").acquire({ leaseMs: 10_000 });
      const owner = "late-owner-of-f1-wait";
      const handle = client.lock("f1w", { owner });
      late.on(runs(acquireScript, owner), { kind: "hold" });
      const waiting = handle.acquire({ waitMs: 5_000, leaseMs: 10_000 });
      await until(() => late.heldCount === 1);
      await delay(400); // the held poll has timed out; a resend answered busy
      await holder.release();
      const held = await waiting;
      await held.release();
      expect(await client.lock("f1w").isLocked()).toBe(false);
      await late.deliver();
      expect(await client.lock("f1w").isLocked()).toBe(false);
    });

    it("finding 2: a late copy of an extend that ended in doubt never shortens a later, longer one", async () => {
      const { client, late } = await make({ requestTimeoutMs: 150, retryWindowMs: 400 });
      const held = await client.lock("f2").acquire({ leaseMs: 10_000 });
      late.on(runs(extendScript, 2_000), { kind: "hold" }, 1_000);
      await expect(held.extend(2_000)).rejects.toBeInstanceOf(LockError);
      late.clear();
      await held.extend(20_000);
      expect(late.heldCount).toBeGreaterThanOrEqual(1);
      await late.deliver();
      const serverMs = await client.lock("f2").remainingMs();
      expect(serverMs).toBeGreaterThan(15_000);
      // what the holder believes never outlasts what the server has
      expect(held.toJSON().expiresAt - Date.now()).toBeLessThanOrEqual(serverMs + 50);
      await delay(2_500);
      expect(await client.lock("f2").tryAcquire()).toBeNull();
      expect(held.signal.aborted).toBe(false);
      await held.release();
    });

    it("finding 2 (keeper): a keeper renewal in doubt never undoes a later, longer extend", async () => {
      const { client, late } = await make({
        leaseMs: 1_500,
        requestTimeoutMs: 150,
        retryWindowMs: 300,
      });
      const held = await client.lock("f2k").acquire();
      late.on(runs(extendScript, 1_500), { kind: "hold" }, 1_000);
      await until(() => late.heldCount >= 1);
      await held.extend(20_000);
      late.clear();
      await late.deliver();
      const serverMs = await client.lock("f2k").remainingMs();
      expect(serverMs).toBeGreaterThan(15_000);
      expect(held.toJSON().expiresAt - Date.now()).toBeLessThanOrEqual(serverMs + 50);
      expect(held.signal.aborted).toBe(false);
      await held.release();
    });

    it("finding 7: a kept-alive hold extended to a shorter lease is renewed at a third of it", async () => {
      const { client } = await make({ leaseMs: 6_000 });
      const held = await client.lock("f7").acquire();
      await held.extend(600);
      await delay(1_500);
      expect(held.signal.aborted).toBe(false);
      expect(await client.lock("f7").tryAcquire()).toBeNull();
      await held.release();
      expect(await client.lock("f7").isLocked()).toBe(false);
    });

    it("a grant that only settle brought back counts its lease from the first copy, not from the settle", async () => {
      const { client, late } = await make({ requestTimeoutMs: 300 });
      const watcher = client.lock("settled-grant");
      await (await client.lock("warm-up").acquire()).release(); // the script is loaded: no NOSCRIPT
      const owner = "owner-of-a-settled-grant";
      // The first copy applies and its answer is lost; the resend hangs until the budget is
      // spent, so only the settle learns of the grant, some 300 ms after the grant ran.
      late.on(runs(acquireScript, owner), { kind: "drop-after" });
      late.on(runs(acquireScript, owner), { kind: "hold" });
      const held = await client.lock("settled-grant", { owner }).tryAcquire({ leaseMs: 800 });
      expect(held).not.toBeNull();
      let serverGoneAt: number | undefined;
      let abortedAt: number | undefined;
      held!.signal.addEventListener("abort", () => (abortedAt = performance.now()));
      while (serverGoneAt === undefined) {
        if (!(await watcher.isLocked())) serverGoneAt = performance.now();
        else await delay(5);
      }
      await until(() => abortedAt !== undefined);
      // Honest lease: the holder gave up no later than the server let go (one poll of slack).
      expect(abortedAt!).toBeLessThanOrEqual(serverGoneAt + 30);
      late.clear();
    });

    it("finding 5: names, prefixes and owner ids with lone surrogates are refused, naming the argument", async () => {
      const { client, requests, late } = await make();
      for (const bad of ["x\uD800", "x\uDFFF", "\uDC00x"]) {
        expect(() => client.lock(bad)).toThrow(InvalidArgumentError);
        expect(() => client.lock(bad)).toThrow(/name/);
        expect(() => client.lock("ok", { owner: bad })).toThrow(/options\.owner/);
        expect(() => createClient({ redis: late.backend, prefix: bad })).toThrow(/options\.prefix/);
      }
      expect(requests.total).toBe(0);
      // U+FFFD itself and well-formed pairs are names like any other, with keys of their own
      const replacement = await client.lock("x\uFFFD").acquire();
      const pair = await client.lock("x\uD83D\uDE00").acquire();
      expect(await client.lock("x\uFFFD").isLocked()).toBe(true);
      await replacement.release();
      expect(await client.lock("x\uD83D\uDE00").isLocked()).toBe(true);
      await pair.release();
    });

    it("finding 6: a record TTL that ignores the request timeout is refused", async () => {
      const redis = await target.makeRedis();
      const options = { redis, requestTimeoutMs: 500, retryWindowMs: 300 };
      expect(() => createClient({ ...options, operationRecordTtlMs: 301 })).toThrow(
        /options\.operationRecordTtlMs/,
      );
    });

    it("finding 6: at the smallest record TTL accepted, a retry that runs a request timeout late applies once", async () => {
      const base = { requestTimeoutMs: 500, retryWindowMs: 300, clockErrorMs: 100 };
      const redis = await target.makeRedis();
      const ttl = smallestRecordTtl(redis, base);
      const { client, late } = await make({ ...base, operationRecordTtlMs: ttl });
      // Scripts loaded and the server time known first, as in any run after the first call: run
      // alone, the NOSCRIPT fallback took the delayed copy's place and the test measured that.
      await (await client.lock("f6-warm").tryAcquire())?.release();
      const owner = "owner-of-a-slow-retry";
      late.on(runs(acquireScript, owner), { kind: "drop-after" });
      late.on(runs(acquireScript, owner), { kind: "delay", ms: 450 });
      const lock = client.lock("f6", { owner });
      const held = await lock.tryAcquire();
      expect(held).not.toBeNull();
      expect(await lock.holdCount()).toBe(1);
      await held!.release();
      expect(await lock.isLocked()).toBe(false);
    });
    it("a resumed hold whose local lease ended at resume still extends and releases at the server once confirmed (adversarial campaign)", async () => {
      // The docs: a resumed hold is trusted from its first confirmed renewal, and extend() and
      // release() still reach the server after its discounted local lease ended. Once confirmed,
      // release() refused locally (NotHeldError, no request) and the lock stayed held.
      const { client } = await make({ clockErrorMs: 1_000 });
      const first = await client.lock("resumed-release").acquire({ leaseMs: 1_500 });
      const resumed = client.lock("resumed-release").resume(first.toJSON());
      expect(resumed.signal.aborted).toBe(true); // 1.5 s left, less 2 × clockErrorMs: not trusted
      await resumed.extend(5_000); // confirmed at the server
      await resumed.extend(6_000); // and again
      expect(await client.lock("resumed-release").remainingMs()).toBeGreaterThan(5_000);
      await resumed.release();
      expect(await client.lock("resumed-release").isLocked()).toBe(false);
    });
  });
}
