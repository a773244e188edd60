import { IntervalRecorder, keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import {
  AbortedError,
  AcquireTimeoutError,
  InvalidArgumentError,
  LeaseLostError,
  type ClientOptions,
  type FairLock,
  type HeldLock,
  type RedisInput,
} from "../../src/index.ts";
import { aborted, delay, eventsOf, makeTestClient } from "../support.ts";
import { dyingClient, eagerStrategy, slowestStrategy, until } from "./waiter-support.ts";

export interface FairLockConformanceTarget {
  readonly name: string;
  /** A Redis connection for this backend (what users pass as `redis`). */
  makeRedis(): RedisInput | Promise<RedisInput>;
}

/** Starts `acquire` on each handle in turn, each only once the previous one is queued. */
async function queueInOrder(
  lock: FairLock,
  handles: FairLock[],
  onGrant: (i: number, held: HeldLock) => Promise<void>,
) {
  const done: Promise<void>[] = [];
  for (const [i, handle] of handles.entries()) {
    done.push(handle.acquire({ waitMs: 20_000 }).then((held) => onGrant(i, held)));
    await until(async () => (await lock.waiters()) === i + 1, 10_000, `waiter ${i} queued`);
  }
  return done;
}

/**
 * The FairLock's behaviour, identical on every backend: the Lock's contract plus strict FIFO,
 * eviction of dead waiters at their own deadline, and no barging. Timing-sensitive cases assert
 * order and outcome, never wall-clock tolerances.
 */
export function runFairLockConformance(target: FairLockConformanceTarget): void {
  describe(`FairLock conformance: ${target.name}`, () => {
    const make = async (options: Omit<ClientOptions, "redis"> = {}) =>
      makeTestClient(await target.makeRedis(), { prefix: keyPrefix(), ...options });

    it("re-enters on the same handle and frees the lock when the count reaches zero", async () => {
      const { client } = await make();
      const lock = client.fairLock("reentry");
      const outer = await lock.acquire();
      const inner = await lock.acquire();
      expect(inner.fence).toBe(outer.fence);
      expect(await lock.holdCount()).toBe(2);
      await inner.release();
      expect(await lock.holdCount()).toBe(1);
      await outer.release();
      expect(await lock.isLocked()).toBe(false);
    });

    it("tryAcquire returns null while held and never joins the queue", async () => {
      const { client } = await make();
      const held = await client.fairLock("try").acquire();
      const other = client.fairLock("try");
      expect(await other.tryAcquire()).toBeNull();
      expect(await other.tryAcquire()).toBeNull();
      expect(await other.waiters()).toBe(0);
      await held.release();
      const next = await other.tryAcquire();
      expect(next!.fence).toBeGreaterThan(held.fence);
      await next!.release();
    });

    it("grants in arrival order: several waiters recorded, fences increasing", async () => {
      const { client } = await make();
      const lock = client.fairLock("fifo");
      const held = await lock.acquire({ leaseMs: 20_000 });
      const order: number[] = [];
      const fences: number[] = [];
      const handles = Array.from({ length: 4 }, () => client.fairLock("fifo"));
      const done = await queueInOrder(lock, handles, async (i, h) => {
        order.push(i);
        fences.push(h.fence);
        await h.release();
      });
      await held.release();
      await Promise.all(done);
      expect(order).toEqual([0, 1, 2, 3]);
      expect(fences).toEqual([...fences].sort((a, b) => a - b));
      expect(new Set(fences).size).toBe(4);
    });

    it("no barging: a newcomer cannot take the lock while a live waiter is queued", async () => {
      const { client } = await make();
      const first = await client.fairLock("barge").acquire({ leaseMs: 300 });
      const waiter = client.fairLock("barge").acquire({ waitMs: 10_000 });
      await until(async () => (await client.fairLock("barge").waiters()) === 1);
      // The lease runs out (no release): the lock is free on the server, yet reserved for the waiter.
      await aborted(first.signal, 5_000);
      expect(await client.fairLock("barge").tryAcquire()).toBeNull();
      const got = await waiter;
      expect(await client.fairLock("barge").tryAcquire()).toBeNull();
      // Released while a waiter is queued: the hand-off is direct, a newcomer still finds it taken.
      const late = client.fairLock("barge").acquire({ waitMs: 10_000 });
      await until(async () => (await client.fairLock("barge").waiters()) === 1);
      await got.release();
      expect(await client.fairLock("barge").tryAcquire()).toBeNull();
      await (await late).release();
    });

    it("a waiter that stops polling is evicted at its own deadline and the next one gets the lock", async () => {
      const redis = await target.makeRedis();
      const prefix = keyPrefix();
      const { client } = makeTestClient(redis, { prefix });
      const holder = await client.fairLock("dead").acquire({ leaseMs: 20_000 });
      // The dead waiter declares "back within 50 + 300 ms", then its invocation dies.
      const dead = dyingClient(redis, { prefix, requestTimeoutMs: 300, wait: eagerStrategy(50) });
      const lost = await dead.client
        .fairLock("dead")
        .acquire({ waitMs: 20_000 })
        .catch((e: unknown) => e);
      expect(lost).toBeInstanceOf(Error);
      expect(eventsOf(dead.events, "waited")[0]?.position).toBe(1); // it was queued, then went silent
      const next = client.fairLock("dead");
      const waiting = next.acquire({ waitMs: 20_000 });
      await until(async () => (await next.waiters()) >= 1);
      await holder.release();
      const got = await waiting;
      expect(got.fence).toBeGreaterThan(holder.fence);
      expect(await next.holdCount()).toBe(1);
      expect(await next.waiters()).toBe(0);
      await got.release();
    });

    it("a live waiter that sleeps as long as it declared keeps its place ahead of eager pollers", async () => {
      const redis = await target.makeRedis();
      const prefix = keyPrefix();
      // A claim window far below the slow sleep: the fair lock reserves a grant until the waiter's
      // own deadline instead, so this setting cannot cost a live waiter its turn.
      const slow = makeTestClient(redis, { prefix, wait: slowestStrategy(400), claimWindowMs: 20 });
      const eager = makeTestClient(redis, { prefix, wait: eagerStrategy(5), claimWindowMs: 20 });
      const holder = await eager.client.fairLock("slow").acquire({ leaseMs: 20_000 });
      const order: string[] = [];
      const lock = eager.client.fairLock("slow");
      const a = slow.client
        .fairLock("slow")
        .acquire({ waitMs: 20_000 })
        .then(async (h) => {
          order.push("slow");
          await h.release();
        });
      await until(async () => (await lock.waiters()) === 1);
      const b = eager.client
        .fairLock("slow")
        .acquire({ waitMs: 20_000 })
        .then(async (h) => {
          order.push("eager");
          await h.release();
        });
      await until(async () => (await lock.waiters()) === 2);
      await delay(600); // several of the slow waiter's full sleeps, hundreds of eager polls
      await holder.release();
      await Promise.all([a, b]);
      expect(order).toEqual(["slow", "eager"]);
    });

    it("an aborted waiter leaves the queue at once; a timed-out one too", async () => {
      const { client } = await make();
      const lock = client.fairLock("leave");
      const held = await lock.acquire({ leaseMs: 20_000 });
      const controller = new AbortController();
      const waiting = client
        .fairLock("leave")
        .acquire({ waitMs: 20_000, signal: controller.signal });
      await until(async () => (await lock.waiters()) === 1);
      controller.abort(new Error("caller gave up"));
      expect(await waiting.catch((e: unknown) => e)).toBeInstanceOf(AbortedError);
      await client.settled();
      expect(await lock.waiters()).toBe(0);
      const timedOut = await client
        .fairLock("leave")
        .acquire({ waitMs: 200 })
        .catch((e: unknown) => e);
      expect(timedOut).toBeInstanceOf(AcquireTimeoutError);
      await client.settled();
      expect(await lock.waiters()).toBe(0);
      await held.release();
      expect(await lock.isLocked()).toBe(false);
    });

    it("10 concurrent handles: no overlapping critical sections, fences increase in grant order", async () => {
      const { client } = await make();
      const recorder = new IntervalRecorder();
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          client.fairLock("crowd").withLock(
            async (held) => {
              const section = recorder.enter(`w${i}`, held.fence);
              await delay(5);
              section.exit();
            },
            { waitMs: 20_000 },
          ),
        ),
      );
      expect(recorder.overlaps()).toEqual([]);
      expect(recorder.fencesIncreasingInGrantOrder()).toBe(true);
      expect(await client.fairLock("crowd").isLocked()).toBe(false);
    });

    it("leases: a fixed lease expires with reason deadline; the keeper renews a default one", async () => {
      // A 600 ms default lease: a 300 ms one was lost once under load after the checks had passed
      // (the keeper renews at a third of it).
      const { client, events } = await make({ leaseMs: 600 });
      const fixed = await client.fairLock("fixed").acquire({ leaseMs: 200 });
      expect(((await aborted(fixed.signal, 3_000)) as LeaseLostError).reason).toBe("deadline");
      const kept = await client.fairLock("kept").acquire();
      await delay(1_500);
      expect(kept.signal.aborted).toBe(false);
      expect(eventsOf(events, "renewed").length).toBeGreaterThanOrEqual(2);
      await kept.release();
      expect(await client.fairLock("kept").isLocked()).toBe(false);
    });

    it("is independent of the Lock of the same name, and its leases resume only as fair-lock leases", async () => {
      const { client } = await make();
      const fair = await client.fairLock("same").acquire({ leaseMs: 5_000 });
      const plain = await client.lock("same").tryAcquire();
      expect(plain).not.toBeNull();
      const lease = JSON.parse(JSON.stringify(fair)) as ReturnType<typeof fair.toJSON>;
      expect(lease.kind).toBe("fair-lock");
      expect(() => client.lock("same").resume(lease)).toThrow(InvalidArgumentError);
      const resumed = client.fairLock("same").resume(lease);
      await resumed.extend(8_000);
      expect(await client.fairLock("same").remainingMs()).toBeGreaterThan(5_000);
      await resumed.release();
      expect(await client.fairLock("same").isLocked()).toBe(false);
      await plain!.release();
    });

    it("uncontended acquire and release cost one request each", async () => {
      const { client, requests } = await make();
      const lock = client.fairLock("cost");
      await (await lock.acquire()).release(); // loads the scripts on this server if needed
      const before = requests.total;
      const held = await lock.acquire({ leaseMs: 5_000 });
      expect(requests.total - before).toBe(1);
      await held.release();
      expect(requests.total - before).toBe(2);
    });

    // A Worker makes a client per request: its first request has no server time, only its wall
    // clock (trusted within clockErrorMs, default 1 s). The protocol must not cost it a request.
    for (const skewMs of [0, 900, -900]) {
      it(`a fresh client (wall clock ${skewMs} ms off) acquires, renews and releases in one request each`, async () => {
        const prefix = keyPrefix();
        const warm = makeTestClient(await target.makeRedis(), { prefix });
        const warmHeld = await warm.client.fairLock("fresh").acquire();
        await warmHeld.extend(5_000); // every script loaded: NOSCRIPT would cost one more
        await warmHeld.release();
        const wallClock = () => Date.now() + skewMs;
        const { client, requests } = makeTestClient(await target.makeRedis(), {
          prefix,
          wallClock,
        });
        const held = await client.fairLock("fresh").acquire({ leaseMs: 10_000 });
        expect(requests.total).toBe(1);
        await held.extend(10_000);
        expect(requests.total).toBe(2);
        await held.release();
        expect(requests.total).toBe(3);
        const fresh = makeTestClient(await target.makeRedis(), { prefix, wallClock });
        const kept = await fresh.client.fairLock("fresh").acquire(); // kept alive by the keeper
        await kept.release();
        expect(fresh.requests.total).toBe(2);
      });
    }

    it("validates arguments before any request", async () => {
      const { client, requests } = await make();
      expect(() => client.fairLock("")).toThrow(InvalidArgumentError);
      expect(() => client.fairLock("x", { owner: "" })).toThrow(/options\.owner/);
      const lock = client.fairLock("valid");
      await expect(lock.acquire({ waitMs: -1 })).rejects.toThrow(/options\.waitMs/);
      await expect(lock.tryAcquire({ leaseMs: 0 })).rejects.toThrow(/options\.leaseMs/);
      await expect(lock.withLock("fn" as never)).rejects.toThrow(/fn/);
      expect(requests.total).toBe(0);
    });
  });
}
