import { IntervalRecorder, keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import {
  AbortedError,
  AcquireTimeoutError,
  InvalidArgumentError,
  NotHeldError,
  PermitsRefusedError,
  type ClientOptions,
  type RedisInput,
} from "../../src/index.ts";
import { semaphoreKeys } from "../../src/keys.ts";
import { runAcquire, runChange, type SemaphoreRef } from "../../src/semaphore/calls.ts";
import { delay, makeTestClient, type TestClient } from "../support.ts";

/** An operation with a fixed id: repeating it replays one operation. */
const opOf = (id: string) => ({ id, deadline: undefined as number | undefined });

export interface SemaphoreConformanceTarget {
  readonly name: string;
  /** A Redis connection for this backend (what users pass as `redis`). */
  makeRedis(): RedisInput | Promise<RedisInput>;
}

function refOf(t: TestClient, name: string): SemaphoreRef {
  const ctx = t.client.context;
  return { ctx, name, keys: semaphoreKeys(ctx.prefix, name) };
}

/** The Semaphore's behaviour, identical on every backend. Asserts outcomes, never wall-clock bounds. */
export function runSemaphoreConformance(target: SemaphoreConformanceTarget): void {
  describe(`Semaphore conformance: ${target.name}`, () => {
    const make = async (options: Omit<ClientOptions, "redis"> = {}) =>
      makeTestClient(await target.makeRedis(), { prefix: keyPrefix(), ...options });

    it("trySetPermits sets only once; acquire and release move the available count", async () => {
      const { client } = await make();
      const sem = client.semaphore("basic");
      expect(await sem.status()).toMatchObject({ set: false, available: 0, total: 0 });
      expect(await sem.trySetPermits(3)).toBe(true);
      expect(await sem.trySetPermits(5)).toBe(false);
      const two = await sem.acquire({ permits: 2 });
      expect(two.permits).toBe(2);
      expect(await sem.availablePermits()).toBe(1);
      expect(await sem.tryAcquire({ permits: 2 })).toBeNull();
      const one = await sem.tryAcquire();
      expect(one).not.toBeNull();
      expect(await sem.availablePermits()).toBe(0);
      await two.release();
      await one!.release();
      expect(await sem.status()).toMatchObject({ set: true, available: 3, total: 3, waiters: 0 });
    });

    it("an unset semaphore grants nothing; acquire times out with AcquireTimeoutError", async () => {
      const { client } = await make();
      const sem = client.semaphore("unset");
      expect(await sem.tryAcquire()).toBeNull();
      const error = await sem.acquire({ waitMs: 150 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AcquireTimeoutError);
      await client.settled();
      expect((await sem.status()).waiters).toBe(0);
    });

    it("a waiter queued before the semaphore was set is served once trySetPermits runs", async () => {
      const { client } = await make();
      const sem = client.semaphore("late-set");
      const waiting = sem.acquire({ permits: 2, waitMs: 10_000 });
      while ((await sem.status()).waiters < 1) await delay(10);
      await sem.trySetPermits(2);
      const hold = await waiting;
      expect(await sem.status()).toMatchObject({ available: 0, total: 2, waiters: 0 });
      await hold.release();
    });

    it("releases never raise the count above what was set plus added", async () => {
      const { client } = await make();
      const sem = client.semaphore("ceiling");
      await sem.trySetPermits(2);
      const refused = await sem.release().catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(PermitsRefusedError);
      expect(refused).toMatchObject({
        code: "PERMITS_REFUSED",
        reason: "over-release",
        available: 2,
        total: 2,
      });
      const hold = await sem.acquire({ permits: 2 });
      await sem.release(1); // anyone may release (Redisson semantics), within the ceiling
      await expect(sem.release(2)).rejects.toBeInstanceOf(PermitsRefusedError);
      await expect(hold.release()).rejects.toBeInstanceOf(PermitsRefusedError); // only 1 was outstanding
      expect(await sem.availablePermits()).toBe(1);
      await sem.release(1);
      expect(await sem.status()).toMatchObject({ available: 2, total: 2 });
    });

    it("addPermits grows and shrinks the total; available may go negative; total never below zero", async () => {
      const { client } = await make();
      const sem = client.semaphore("add");
      await sem.addPermits(2); // creates it, as Redisson's addPermits on an unset semaphore
      expect(await sem.trySetPermits(9)).toBe(false);
      const hold = await sem.acquire({ permits: 2 });
      await sem.addPermits(-1);
      expect(await sem.status()).toMatchObject({ available: -1, total: 1 });
      await expect(sem.addPermits(-2)).rejects.toMatchObject({ reason: "negative-total" });
      expect(await sem.tryAcquire()).toBeNull();
      await hold.release();
      expect(await sem.status()).toMatchObject({ available: 1, total: 1 });
      await sem.addPermits(3);
      expect(await sem.availablePermits()).toBe(4);
    });

    it("a hold releases once: a second release throws NotHeldError without a request", async () => {
      const { client, requests } = await make();
      const sem = client.semaphore("once");
      await sem.trySetPermits(1);
      const hold = await sem.acquire();
      await hold.release();
      const before = requests.total;
      await expect(hold.release()).rejects.toBeInstanceOf(NotHeldError);
      expect(requests.total).toBe(before);
    });

    it("uncontended acquire and release cost one request each", async () => {
      const { client, requests } = await make();
      const sem = client.semaphore("cost");
      await sem.trySetPermits(2);
      await sem.availablePermits(); // loads the scripts once (EVALSHA hits from here on)
      let before = requests.total;
      const hold = await sem.acquire({ permits: 2 });
      const acquireRequests = requests.total - before;
      before = requests.total;
      await hold.release();
      const releaseRequests = requests.total - before;
      // NOSCRIPT fallback may add one EVAL the first time each script runs on a fresh server
      expect(acquireRequests).toBeLessThanOrEqual(2);
      expect(releaseRequests).toBeLessThanOrEqual(2);
      before = requests.total;
      await (await sem.acquire()).release();
      expect(requests.total - before).toBe(2);
    });

    // A Worker makes a client per request: its first request has no server time, only its wall
    // clock (trusted within clockErrorMs, default 1 s). The protocol must not cost it a request.
    for (const skewMs of [0, 900, -900]) {
      it(`a fresh client (wall clock ${skewMs} ms off) acquires and releases in one request each`, async () => {
        const prefix = keyPrefix();
        const warm = makeTestClient(await target.makeRedis(), { prefix });
        await warm.client.semaphore("fresh").trySetPermits(2);
        await (await warm.client.semaphore("fresh").acquire()).release(); // scripts loaded
        const wallClock = () => Date.now() + skewMs;
        const { client, requests } = makeTestClient(await target.makeRedis(), {
          prefix,
          wallClock,
        });
        const hold = await client.semaphore("fresh").acquire({ permits: 2 });
        expect(requests.total).toBe(1);
        await hold.release();
        expect(requests.total).toBe(2);
        const other = makeTestClient(await target.makeRedis(), { prefix, wallClock });
        await other.client
          .semaphore("fresh")
          .release(1)
          .catch(() => undefined);
        expect(other.requests.total).toBe(1); // a refused over-release: one request too
      });
    }

    it("exactly once: replaying an operation id never applies twice", async () => {
      const t = await make();
      const sem = t.client.semaphore("replay");
      const ref = refOf(t, "replay");
      expect((await runChange(ref, "trySetPermits", 4, opOf("op-set"))).applied).toBe(true);
      expect((await runChange(ref, "trySetPermits", 4, opOf("op-set"))).applied).toBe(true); // same answer, no change
      const take = {
        waiter: "w1",
        permits: 3,
        queue: false,
        returnWithinMs: 1_000,
        op: opOf("op-take"),
        budgetMs: 1_000,
      };
      expect((await runAcquire(ref, take)).reply.status).toBe("granted");
      expect((await runAcquire(ref, take)).reply.status).toBe("granted");
      expect(await sem.availablePermits()).toBe(1);
      expect((await runChange(ref, "release", 3, opOf("op-give"))).available).toBe(4);
      expect((await runChange(ref, "release", 3, opOf("op-give"))).available).toBe(4);
      expect((await runChange(ref, "addPermits", 2, opOf("op-add"))).total).toBe(6);
      expect((await runChange(ref, "addPermits", 2, opOf("op-add"))).total).toBe(6);
      expect(await sem.status()).toMatchObject({ available: 6, total: 6 });
    });

    it("a hold serialised with toJSON releases exactly once from another client", async () => {
      const first = await make();
      const sem = first.client.semaphore("handoff");
      await sem.trySetPermits(2);
      const hold = await sem.acquire({ permits: 2 });
      const json = JSON.parse(JSON.stringify(hold)) as ReturnType<typeof hold.toJSON>;
      const second = makeTestClient(await target.makeRedis(), { prefix: json.prefix });
      const other = second.client.semaphore("handoff");
      await other.resume(json).release();
      await other.resume(json).release(); // the same operation id: applies once, answers the same
      expect(await other.availablePermits()).toBe(2);
      expect(() => second.client.semaphore("elsewhere").resume(json)).toThrow(/hold\.name/);
    });

    it("a waiter is served when permits come back, through a direct grant", async () => {
      const { client } = await make();
      const sem = client.semaphore("handoff-wait");
      await sem.trySetPermits(1);
      const hold = await sem.acquire();
      setTimeout(() => void hold.release(), 100);
      const next = await sem.acquire({ waitMs: 10_000 });
      expect(await sem.status()).toMatchObject({ available: 0, waiters: 0 });
      await next.release();
    });

    it("a dead waiter at the head is evicted after its poll deadline; an unclaimed grant returns", async () => {
      const t = await make({ claimWindowMs: 1_000 });
      const sem = t.client.semaphore("dead");
      const ref = refOf(t, "dead");
      await sem.trySetPermits(1);
      const hold = await sem.acquire();
      // a waiter that queues, promises to be back within 1 s, and never returns
      expect(
        (
          await runAcquire(ref, {
            waiter: "ghost",
            permits: 1,
            queue: true,
            returnWithinMs: 1_000,
            op: opOf("g1"),
            budgetMs: 1_000,
          })
        ).reply.status,
      ).toBe("busy");
      await hold.release(); // granted to the ghost for the claim window…
      expect(await sem.availablePermits()).toBe(0);
      const live = await sem.acquire({ waitMs: 10_000 }); // …and back once it lapses
      await live.release();
      expect(await sem.status()).toMatchObject({ available: 1, waiters: 0 });
    });

    it("abort mid-wait rejects at once and leaves the queue", async () => {
      const { client } = await make();
      const sem = client.semaphore("abort");
      await sem.trySetPermits(1);
      const hold = await sem.acquire();
      const controller = new AbortController();
      const waiting = sem.acquire({ waitMs: 10_000, signal: controller.signal });
      await delay(100);
      controller.abort(new Error("caller gave up"));
      const error = await waiting.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AbortedError);
      await client.settled();
      expect((await sem.status()).waiters).toBe(0);
      await hold.release();
      expect(await sem.availablePermits()).toBe(1);
    });

    it("12 workers over 3 permits: never more than 3 holders at once", async () => {
      const { client } = await make();
      const sem = client.semaphore("crowd");
      await sem.trySetPermits(3);
      const recorder = new IntervalRecorder();
      let holders = 0;
      let maxHolders = 0;
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          sem.withPermits(
            async () => {
              maxHolders = Math.max(maxHolders, ++holders);
              const section = recorder.enter(`w${i}`);
              await delay(10);
              section.exit();
              holders--;
            },
            { waitMs: 20_000 },
          ),
        ),
      );
      expect(maxHolders).toBeLessThanOrEqual(3);
      expect(recorder.maxConcurrent()).toBeLessThanOrEqual(3);
      expect(await sem.status()).toMatchObject({ available: 3, waiters: 0 });
    });

    it("strict FIFO: a queued request for many permits is not overtaken by later small ones", async () => {
      const { client } = await make();
      const sem = client.semaphore("fifo");
      await sem.trySetPermits(3);
      const small = [await sem.acquire(), await sem.acquire(), await sem.acquire()];
      let bigGranted = false;
      const big = sem.acquire({ permits: 3, waitMs: 15_000 }).then((hold) => {
        bigGranted = true;
        return hold;
      });
      while ((await sem.status()).waiters < 1) await delay(10);
      await small[0]!.release();
      expect(await sem.availablePermits()).toBe(1);
      expect(await sem.tryAcquire()).toBeNull(); // one is free, but the head needs three
      const late = sem.acquire({ waitMs: 15_000 });
      await small[1]!.release();
      await small[2]!.release();
      const hold = await big;
      expect(await sem.status()).toMatchObject({ available: 0 });
      await hold.release();
      await (await late).release();
      expect(bigGranted).toBe(true);
      expect(await sem.availablePermits()).toBe(3);
    });

    it("a request for all permits is not starved by a stream of single-permit requests", async () => {
      const { client } = await make();
      const sem = client.semaphore("starve");
      await sem.trySetPermits(3);
      let stop = false;
      let smallHolders = 0;
      let overlapWithBig = false;
      let bigHolding = false;
      const small = Array.from({ length: 8 }, async () => {
        while (!stop) {
          await sem.withPermits(
            async () => {
              smallHolders++;
              if (bigHolding) overlapWithBig = true;
              await delay(5);
              smallHolders--;
            },
            { waitMs: 20_000 },
          );
        }
      });
      await delay(100); // the small ones are cycling
      const big = await sem.acquire({ permits: 3, waitMs: 15_000 });
      bigHolding = true;
      expect(smallHolders).toBe(0);
      await delay(20);
      bigHolding = false;
      await big.release();
      stop = true;
      await Promise.all(small);
      expect(overlapWithBig).toBe(false);
      expect(await sem.availablePermits()).toBe(3);
    });

    it("validates arguments before any request", async () => {
      const { client, requests } = await make();
      expect(() => client.semaphore("")).toThrow(InvalidArgumentError);
      const sem = client.semaphore("valid");
      await expect(sem.trySetPermits(-1)).rejects.toThrow(/permits/);
      await expect(sem.trySetPermits(1.5)).rejects.toThrow(/permits/);
      await expect(sem.addPermits(Number.NaN)).rejects.toThrow(/delta/);
      await expect(sem.acquire({ permits: 0 })).rejects.toThrow(/options\.permits/);
      await expect(sem.acquire({ waitMs: -1 })).rejects.toThrow(/options\.waitMs/);
      await expect(sem.acquire({ signal: "no" as never })).rejects.toThrow(/options\.signal/);
      await expect(sem.release(0)).rejects.toThrow(/permits/);
      await expect(sem.withPermits("fn" as never)).rejects.toThrow(/fn/);
      expect(() => sem.resume({ v: 2 } as never)).toThrow(/hold/);
      expect(requests.total).toBe(0);
    });
  });
}
