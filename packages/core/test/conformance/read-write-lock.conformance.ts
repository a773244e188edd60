import { keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import {
  AbortedError,
  AcquireTimeoutError,
  InvalidArgumentError,
  LeaseLostError,
  NotHeldError,
  UpgradeError,
  type ClientOptions,
  type RedisInput,
} from "../../src/index.ts";
import { aborted, delay, eventsOf, makeTestClient } from "../support.ts";
import { ReadWriteChecker } from "./rw-checker.ts";
import { dyingClient, eagerStrategy, until } from "./waiter-support.ts";

export interface ReadWriteLockConformanceTarget {
  readonly name: string;
  /** A Redis connection for this backend (what users pass as `redis`). */
  makeRedis(): RedisInput | Promise<RedisInput>;
}

/**
 * The ReadWriteLock's behaviour, identical on every backend. Timing-sensitive cases assert order
 * and outcome, never wall-clock tolerances.
 */
export function runReadWriteLockConformance(target: ReadWriteLockConformanceTarget): void {
  describe(`ReadWriteLock conformance: ${target.name}`, () => {
    const make = async (options: Omit<ClientOptions, "redis"> = {}) =>
      makeTestClient(await target.makeRedis(), { prefix: keyPrefix(), ...options });

    it("readers share; a writer is refused while they read, and readers while it writes", async () => {
      const { client } = await make();
      const [a, b, w] = [
        client.readWriteLock("share"),
        client.readWriteLock("share"),
        client.readWriteLock("share"),
      ];
      const ra = await a.read.tryAcquire();
      const rb = await b.read.tryAcquire();
      expect(ra).not.toBeNull();
      expect(rb).not.toBeNull();
      expect(await w.read.isLocked()).toBe(true);
      expect(await w.write.isLocked()).toBe(false);
      expect(await w.write.tryAcquire()).toBeNull();
      expect(await w.write.waiters()).toBe(0); // tryAcquire never queues
      await ra!.release();
      expect(await w.write.tryAcquire()).toBeNull();
      await rb!.release();
      const held = await w.write.tryAcquire();
      expect(held).not.toBeNull();
      expect(held!.fence).toBeGreaterThan(rb!.fence);
      expect(await a.read.tryAcquire()).toBeNull();
      expect(await b.write.tryAcquire()).toBeNull();
      await held!.release();
      expect(await w.write.isLocked()).toBe(false);
    });

    it("re-enters both ways: nested holds share a fence and free the side at zero", async () => {
      const { client } = await make();
      const rw = client.readWriteLock("reentry");
      const r1 = await rw.read.acquire();
      const r2 = await rw.read.acquire();
      expect(r2.fence).toBe(r1.fence);
      expect(await rw.read.holdCount()).toBe(2);
      await r1.release();
      expect(await rw.read.holdCount()).toBe(1);
      await r2.release();
      expect(await rw.read.isLocked()).toBe(false);
      const w1 = await rw.write.acquire();
      const w2 = await rw.write.acquire();
      expect(w2.fence).toBe(w1.fence);
      expect(await rw.write.holdCount()).toBe(2);
      await w2.release();
      await w1.release();
      expect(await rw.write.isLocked()).toBe(false);
    });

    it("downgrade: a writer queued behind it is handed the lock only when the downgraded read ends", async () => {
      const { client } = await make();
      const rw = client.readWriteLock("down-queued");
      const other = client.readWriteLock("down-queued");
      const w = await rw.write.acquire();
      const r = await rw.read.acquire();
      let granted = false;
      const waiting = other.write.acquire({ waitMs: 10_000 }).then((held) => {
        granted = true;
        return held;
      });
      await new Promise((resolve) => setTimeout(resolve, 150)); // queued behind the writer
      await w.release(); // the read hold lives on: no writer may be granted
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(granted).toBe(false);
      expect(await rw.write.isLocked()).toBe(false);
      await r.release();
      const next = await waiting;
      expect(next.fence).toBeGreaterThan(r.fence);
      await next.release();
    });

    it("downgrade: the writer takes the read lock, and releasing write keeps it", async () => {
      const { client } = await make();
      const rw = client.readWriteLock("down");
      const other = client.readWriteLock("down");
      const w = await rw.write.acquire();
      const r = await rw.read.acquire();
      expect(r.fence).toBeGreaterThan(w.fence);
      expect(await other.read.tryAcquire()).toBeNull();
      await w.release();
      expect(await rw.write.isLocked()).toBe(false);
      expect(await rw.read.holdCount()).toBe(1);
      expect(r.signal.aborted).toBe(false);
      expect(await other.write.tryAcquire()).toBeNull();
      const shared = await other.read.tryAcquire();
      expect(shared).not.toBeNull();
      await shared!.release();
      await r.release();
      const next = await other.write.tryAcquire();
      expect(next!.fence).toBeGreaterThan(r.fence);
      await next!.release();
    });

    it("a reader asking for the write lock gets UpgradeError at once, not a deadlock", async () => {
      const { client, requests } = await make();
      const rw = client.readWriteLock("up");
      const r = await rw.read.acquire();
      const before = requests.total;
      const error = await rw.write.acquire({ waitMs: 30_000 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UpgradeError);
      expect((error as UpgradeError).code).toBe("UPGRADE");
      expect(requests.total - before).toBe(1);
      await expect(rw.write.tryAcquire()).rejects.toBeInstanceOf(UpgradeError);
      expect(await rw.write.waiters()).toBe(0);
      await r.release();
      const w = await rw.write.tryAcquire();
      expect(w).not.toBeNull();
      await w!.release();
    });

    it("each reader has its own lease: an expired reader frees the lock, the others keep it", async () => {
      const { client } = await make();
      const short = client.readWriteLock("expiry");
      const long = client.readWriteLock("expiry");
      const writer = client.readWriteLock("expiry");
      const r1 = await short.read.acquire({ leaseMs: 200 });
      const r2 = await long.read.acquire({ leaseMs: 600 });
      expect(await short.read.remainingMs()).toBeGreaterThan(200);
      await aborted(r1.signal, 5_000);
      // The holder gives up first: its local deadline counts from when the grant was sent, the
      // server's lease from when the script ran (later by the request's way there, and by a
      // round trip more when the script was not cached yet: EVALSHA, NOSCRIPT, then EVAL).
      // So the server drops the reader at or after the holder's abort, never before.
      await until(async () => (await short.read.holdCount()) === 0, 5_000, "r1 expired");
      expect(await long.read.holdCount()).toBe(1);
      await expect(r1.release()).rejects.toBeInstanceOf(NotHeldError);
      const w = await writer.write.acquire({ waitMs: 10_000 });
      expect(((await aborted(r2.signal, 5_000)) as LeaseLostError).reason).toBe("deadline");
      expect(w.fence).toBeGreaterThan(r2.fence);
      await w.release();
    });

    it("the keeper renews a reader's default lease until release", async () => {
      // A 600 ms default lease (the keeper renews at a third of it): 300 ms is lost to one slow
      // renewal on a loaded machine.
      const { client, events } = await make({ leaseMs: 600 });
      const rw = client.readWriteLock("kept");
      const r = await rw.read.acquire();
      await delay(1_500);
      expect(r.signal.aborted).toBe(false);
      expect(await rw.read.holdCount()).toBe(1);
      expect(eventsOf(events, "renewed").length).toBeGreaterThanOrEqual(2);
      await r.release();
      expect(await rw.read.isLocked()).toBe(false);
    });

    it("writers queue in FIFO order; an aborted or timed-out writer leaves the queue at once", async () => {
      const { client } = await make();
      const holder = client.readWriteLock("wq");
      const r = await holder.read.acquire({ leaseMs: 20_000 });
      const order: number[] = [];
      const writers = Array.from({ length: 3 }, () => client.readWriteLock("wq"));
      const done: Promise<void>[] = [];
      for (const [i, w] of writers.entries()) {
        done.push(
          w.write.acquire({ waitMs: 20_000 }).then(async (h) => {
            order.push(i);
            await h.release();
          }),
        );
        await until(async () => (await holder.write.waiters()) === i + 1);
      }
      const controller = new AbortController();
      const quitter = client
        .readWriteLock("wq")
        .write.acquire({ waitMs: 20_000, signal: controller.signal });
      await until(async () => (await holder.write.waiters()) === 4);
      controller.abort(new Error("gave up"));
      expect(await quitter.catch((e: unknown) => e)).toBeInstanceOf(AbortedError);
      await client.settled();
      expect(await holder.write.waiters()).toBe(3);
      const late = await client
        .readWriteLock("wq")
        .write.acquire({ waitMs: 200 })
        .catch((e: unknown) => e);
      expect(late).toBeInstanceOf(AcquireTimeoutError);
      await client.settled();
      expect(await holder.write.waiters()).toBe(3);
      await r.release();
      await Promise.all(done);
      expect(order).toEqual([0, 1, 2]);
      expect(await holder.write.isLocked()).toBe(false);
    });

    it("a queued writer that stops polling is evicted at its own deadline", async () => {
      const redis = await target.makeRedis();
      const prefix = keyPrefix();
      const { client } = makeTestClient(redis, { prefix });
      const reader = await client.readWriteLock("dead").read.acquire({ leaseMs: 20_000 });
      const dead = dyingClient(redis, { prefix, requestTimeoutMs: 300, wait: eagerStrategy(50) });
      await dead.client
        .readWriteLock("dead")
        .write.acquire({ waitMs: 20_000 })
        .catch(() => undefined);
      expect(eventsOf(dead.events, "waited")[0]?.position).toBe(1);
      const next = client.readWriteLock("dead");
      const waiting = next.write.acquire({ waitMs: 20_000 });
      await until(async () => (await next.write.waiters()) >= 1);
      await reader.release();
      const got = await waiting;
      expect(await next.write.holdCount()).toBe(1);
      await got.release();
    });

    it("no writer starvation: a writer gets in while a stream of readers keeps coming", async () => {
      const { client } = await make({ wait: eagerStrategy(5) });
      let writerDone = false;
      const checker = new ReadWriteChecker();
      const reader = async (i: number) => {
        const rw = client.readWriteLock("stream");
        let reads = 0;
        while (!writerDone && reads < 400) {
          await rw.read.withLock(
            async (h) => {
              const s = checker.enter("read", `r${i}`, h.fence);
              await delay(15);
              s.exit();
            },
            { waitMs: 20_000 },
          );
          reads++;
        }
        return reads;
      };
      const readers = Array.from({ length: 4 }, (_, i) => reader(i));
      await until(() => checker.maxConcurrentReaders >= 2);
      await client.readWriteLock("stream").write.withLock(
        async (h) => {
          const s = checker.enter("write", "w", h.fence);
          await delay(5);
          s.exit();
        },
        { waitMs: 15_000 },
      );
      writerDone = true;
      const reads = await Promise.all(readers);
      expect(reads.every((n) => n < 400)).toBe(true); // the writer got in while readers still came
      expect(checker.violations).toEqual([]);
    });

    it("writers and readers never overlap; writer fences increase in grant order", async () => {
      const { client } = await make({ wait: eagerStrategy(5) });
      const checker = new ReadWriteChecker();
      const run = (mode: "read" | "write", i: number, rounds: number) => async () => {
        const side = client.readWriteLock("mixed")[mode];
        for (let k = 0; k < rounds; k++) {
          await side.withLock(
            async (h) => {
              const s = checker.enter(mode, `${mode}${i}`, h.fence);
              await delay(mode === "read" ? 8 : 3);
              s.exit();
            },
            { waitMs: 30_000 },
          );
        }
      };
      await Promise.all([
        ...Array.from({ length: 4 }, (_, i) => run("read", i, 4)()),
        ...Array.from({ length: 3 }, (_, i) => run("write", i, 3)()),
      ]);
      expect(checker.violations).toEqual([]);
      expect(checker.writerFences).toHaveLength(9);
      expect(checker.writerFencesIncreasing()).toBe(true);
      expect(checker.maxConcurrentReaders).toBeGreaterThanOrEqual(1);
    });

    it("a reader waits for the writer and gets in when it releases; timeouts throw", async () => {
      const { client } = await make();
      const w = await client.readWriteLock("wait").write.acquire({ leaseMs: 10_000 });
      const reader = client.readWriteLock("wait");
      expect(await reader.read.acquire({ waitMs: 150 }).catch((e: unknown) => e)).toBeInstanceOf(
        AcquireTimeoutError,
      );
      setTimeout(() => void w.release(), 100);
      const r = await reader.read.acquire({ waitMs: 10_000 });
      expect(r.fence).toBeGreaterThan(w.fence);
      await r.release();
    });

    it("forceUnlock clears one side; leases resume only on the same side", async () => {
      const { client } = await make();
      const rw = client.readWriteLock("ops");
      const r = await rw.read.acquire({ leaseMs: 5_000 });
      const lease = JSON.parse(JSON.stringify(r)) as ReturnType<typeof r.toJSON>;
      expect(lease).toMatchObject({ kind: "read-write-lock", side: "read" });
      expect(() => rw.write.resume(lease)).toThrow(InvalidArgumentError);
      const resumed = client.readWriteLock("ops").read.resume(lease);
      await resumed.extend(8_000);
      expect(await rw.read.remainingMs()).toBeGreaterThan(5_000);
      expect(await rw.write.forceUnlock()).toBe(false);
      expect(await rw.read.forceUnlock()).toBe(true);
      expect(await rw.read.isLocked()).toBe(false);
      const w = await rw.write.acquire({ leaseMs: 5_000 });
      const wLease = JSON.parse(JSON.stringify(w)) as ReturnType<typeof w.toJSON>;
      const wResumed = client.readWriteLock("ops").write.resume(wLease);
      await wResumed.release();
      expect(await rw.write.isLocked()).toBe(false);
    });

    it("uncontended acquire and release cost one request each, on both sides", async () => {
      const { client, requests } = await make();
      const rw = client.readWriteLock("cost");
      await (await rw.read.acquire()).release(); // loads the scripts on this server if needed
      await (await rw.write.acquire()).release();
      for (const side of [rw.read, rw.write]) {
        const before = requests.total;
        const held = await side.acquire({ leaseMs: 5_000 });
        expect(requests.total - before, `${side.mode} acquire`).toBe(1);
        await held.release();
        expect(requests.total - before, `${side.mode} release`).toBe(2);
      }
    });

    // A Worker makes a client per request: its first request has no server time, only its wall
    // clock (trusted within clockErrorMs, default 1 s). The protocol must not cost it a request.
    for (const skewMs of [0, 900, -900]) {
      it(`a fresh client (wall clock ${skewMs} ms off) acquires, renews and releases each side in one request each`, async () => {
        const prefix = keyPrefix();
        const warm = makeTestClient(await target.makeRedis(), { prefix });
        for (const side of ["read", "write"] as const) {
          const warmHeld = await warm.client.readWriteLock("fresh")[side].acquire();
          await warmHeld.extend(5_000); // every script loaded: NOSCRIPT would cost one more
          await warmHeld.release();
        }
        const wallClock = () => Date.now() + skewMs;
        for (const side of ["read", "write"] as const) {
          const { client, requests } = makeTestClient(await target.makeRedis(), {
            prefix,
            wallClock,
          });
          const held = await client.readWriteLock("fresh")[side].acquire({ leaseMs: 10_000 });
          expect(requests.total, `${side} acquire`).toBe(1);
          await held.extend(10_000);
          expect(requests.total, `${side} renew`).toBe(2);
          await held.release();
          expect(requests.total, `${side} release`).toBe(3);
          const fresh = makeTestClient(await target.makeRedis(), { prefix, wallClock });
          const kept = await fresh.client.readWriteLock("fresh")[side].acquire(); // kept alive
          await kept.release();
          expect(fresh.requests.total, `${side} kept-alive acquire + release`).toBe(2);
        }
      });
    }

    it("validates arguments before any request", async () => {
      const { client, requests } = await make();
      expect(() => client.readWriteLock("")).toThrow(InvalidArgumentError);
      expect(() => client.readWriteLock("x", { owner: 5 as never })).toThrow(/options\.owner/);
      const rw = client.readWriteLock("valid");
      await expect(rw.read.acquire({ waitMs: 1.5 })).rejects.toThrow(/options\.waitMs/);
      await expect(rw.write.acquire({ leaseMs: -1 })).rejects.toThrow(/options\.leaseMs/);
      await expect(rw.write.acquire({ signal: {} as never })).rejects.toThrow(/options\.signal/);
      expect(requests.total).toBe(0);
    });
  });
}
