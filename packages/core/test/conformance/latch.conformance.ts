import { keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import {
  AbortedError,
  InvalidArgumentError,
  type ClientOptions,
  type RedisInput,
} from "../../src/index.ts";
import { latchKeys } from "../../src/keys.ts";
import { runCountDown, type LatchRef } from "../../src/latch/calls.ts";
import { delay, makeTestClient, type TestClient } from "../support.ts";

export interface LatchConformanceTarget {
  readonly name: string;
  makeRedis(): RedisInput | Promise<RedisInput>;
}

function refOf(t: TestClient, name: string): LatchRef {
  const ctx = t.client.context;
  return { ctx, name, keys: latchKeys(ctx.prefix, name) };
}

/** The CountDownLatch's behaviour, identical on every backend. */
export function runLatchConformance(target: LatchConformanceTarget): void {
  describe(`CountDownLatch conformance: ${target.name}`, () => {
    const make = async (options: Omit<ClientOptions, "redis"> = {}) =>
      makeTestClient(await target.makeRedis(), { prefix: keyPrefix(), ...options });

    it("trySetCount only when open; countDown to zero opens it and allows a new round", async () => {
      const { client } = await make();
      const latch = client.countDownLatch("basic");
      expect(await latch.getCount()).toBe(0);
      expect(await latch.await({ waitMs: 0 })).toBe(true); // never set: open, as in Redisson
      expect(await latch.trySetCount(2)).toBe(true);
      expect(await latch.trySetCount(5)).toBe(false);
      expect(await latch.countDown()).toBe(1);
      expect(await latch.await({ waitMs: 0 })).toBe(false);
      expect(await latch.countDown()).toBe(0);
      expect(await latch.getCount()).toBe(0);
      expect(await latch.countDown()).toBe(0); // nothing left to count
      expect(await latch.trySetCount(1)).toBe(true);
      expect(await latch.getCount()).toBe(1);
    });

    it("await returns true once opened, false when waitMs runs out, and rejects on abort", async () => {
      const { client } = await make();
      const latch = client.countDownLatch("await");
      await latch.trySetCount(1);
      expect(await latch.await({ waitMs: 150 })).toBe(false);
      const controller = new AbortController();
      const cancelled = latch.await({ signal: controller.signal }).catch((e: unknown) => e);
      setTimeout(() => controller.abort(new Error("stop")), 50);
      expect(await cancelled).toBeInstanceOf(AbortedError);
      setTimeout(() => void latch.countDown(), 100);
      expect(await latch.await({ waitMs: 10_000 })).toBe(true);
    });

    it("exactly once: the same countDown operation id counts once however often it runs", async () => {
      const t = await make();
      const latch = t.client.countDownLatch("replay");
      const ref = refOf(t, "replay");
      await latch.trySetCount(3);
      expect(await runCountDown(ref, "op-1")).toEqual({ counted: true, remaining: 2 });
      expect(await runCountDown(ref, "op-1")).toEqual({ counted: true, remaining: 2 });
      await Promise.all([
        runCountDown(ref, "op-2"),
        runCountDown(ref, "op-2"),
        runCountDown(ref, "op-2"),
      ]);
      expect(await latch.getCount()).toBe(1);
    });

    it("never opens early: 6 workers with replayed countDowns; awaiters wake only after all 6", async () => {
      const t = await make();
      const latch = t.client.countDownLatch("workers");
      const ref = refOf(t, "workers");
      await latch.trySetCount(6);
      const started: number[] = [];
      const awaiters = Array.from({ length: 3 }, async () => {
        const opened = await latch.await({ waitMs: 20_000 });
        return { opened, startedWhenOpened: started.length };
      });
      const work = async (i: number) => {
        const op = `worker-${i}`;
        started.push(i);
        // each worker's request "retried": two copies at once and one late copy
        await Promise.all([runCountDown(ref, op), runCountDown(ref, op)]);
        await delay(5);
        await runCountDown(ref, op);
      };
      await Promise.all([0, 1, 2, 3, 4].map(work));
      expect(await latch.getCount()).toBe(1);
      expect(await latch.await({ waitMs: 0 })).toBe(false);
      await work(5);
      for (const result of await Promise.all(awaiters)) {
        expect(result.opened).toBe(true);
        expect(result.startedWhenOpened).toBe(6);
      }
      expect(await latch.getCount()).toBe(0);
    });

    it("the latch key expires after ttlMs without a countDown, so no latch is permanent", async () => {
      const { client } = await make();
      const latch = client.countDownLatch("ttl");
      await latch.trySetCount(3, { ttlMs: 400 });
      await delay(200);
      expect(await latch.countDown()).toBe(2); // restarts the ttl
      await delay(250);
      expect(await latch.getCount()).toBe(2);
      await delay(400);
      expect(await latch.getCount()).toBe(0);
    });

    it("countDown, getCount and an open await cost one request each", async () => {
      const { client, requests } = await make();
      const latch = client.countDownLatch("cost");
      await latch.trySetCount(2);
      await latch.countDown();
      await latch.getCount(); // scripts loaded
      let before = requests.total;
      await latch.countDown();
      expect(requests.total - before).toBe(1);
      before = requests.total;
      expect(await latch.await()).toBe(true);
      expect(requests.total - before).toBe(1);
    });

    it("a fresh client (no server time yet): countDown and an open await cost one request each", async () => {
      const prefix = keyPrefix();
      const { client: warm } = await make({ prefix });
      const latch = warm.countDownLatch("fresh");
      await latch.trySetCount(3);
      await latch.countDown();
      await latch.await({ waitMs: 0 }); // scripts loaded
      const fresh = await make({ prefix });
      expect(await fresh.client.countDownLatch("fresh").countDown()).toBe(1);
      expect(fresh.requests.total).toBe(1);
      const other = await make({ prefix });
      expect(await other.client.countDownLatch("fresh").countDown()).toBe(0);
      const opener = await make({ prefix });
      expect(await opener.client.countDownLatch("fresh").await({ waitMs: 0 })).toBe(true);
      expect([other.requests.total, opener.requests.total]).toEqual([1, 1]);
    });

    it("validates arguments before any request", async () => {
      const { client, requests } = await make();
      expect(() => client.countDownLatch("")).toThrow(InvalidArgumentError);
      const latch = client.countDownLatch("valid");
      await expect(latch.trySetCount(0)).rejects.toThrow(/count/);
      await expect(latch.trySetCount(2, { ttlMs: 0 })).rejects.toThrow(/options\.ttlMs/);
      await expect(latch.await({ waitMs: -1 })).rejects.toThrow(/options\.waitMs/);
      await expect(latch.await({ signal: 1 as never })).rejects.toThrow(/options\.signal/);
      expect(requests.total).toBe(0);
    });
  });
}
