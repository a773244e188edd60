import { IntervalRecorder, keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import {
  AbortedError,
  AcquireTimeoutError,
  InvalidArgumentError,
  LeaseLostError,
  NotHeldError,
  type ClientOptions,
  type EdgelockClient,
  type RedisInput,
} from "../../src/index.ts";
import { aborted, delay, makeTestClient, settlesTo } from "../support.ts";

export interface MultiLockConformanceTarget {
  readonly name: string;
  /** A Redis connection for this backend (what users pass as `redis`). */
  makeRedis(): RedisInput | Promise<RedisInput>;
}

const locked = async (client: EdgelockClient, names: string[]) =>
  Promise.all(names.map((n) => client.lock(n).isLocked()));

/**
 * The MultiLock's behaviour, identical on every backend: all or none, no deadlock whatever order
 * callers list names in, rollback of partial attempts, one request per hash tag.
 */
export function runMultiLockConformance(target: MultiLockConformanceTarget): void {
  describe(`MultiLock conformance: ${target.name}`, () => {
    const make = async (options: Omit<ClientOptions, "redis"> = {}) =>
      makeTestClient(await target.makeRedis(), { prefix: keyPrefix(), ...options });

    it("all or none: one busy name fails the whole acquire and takes nothing", async () => {
      const { client } = await make();
      const blocker = await client.lock("b").acquire({ leaseMs: 10_000 });
      const multi = client.multiLock(["a", "b", "c"]);
      expect(await multi.tryAcquire()).toBeNull();
      expect(await locked(client, ["a", "b", "c"])).toEqual([false, true, false]);
      await blocker.release();
      const held = await multi.acquire();
      expect(await locked(client, ["a", "b", "c"])).toEqual([true, true, true]);
      expect(await client.lock("a").tryAcquire()).toBeNull();
      await held.release();
      expect(await locked(client, ["a", "b", "c"])).toEqual([false, false, false]);
    });

    it("a busy later group rolls back the groups already taken (timeout and tryAcquire)", async () => {
      const { client } = await make();
      const multi = client.multiLock(["z", "x", "y"]);
      expect(multi.names).toEqual(["x", "y", "z"]);
      const blocker = await client.lock("z").acquire({ leaseMs: 10_000 });
      expect(await multi.tryAcquire()).toBeNull();
      expect(await locked(client, ["x", "y"])).toEqual([false, false]);
      const error = await multi.acquire({ waitMs: 250 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AcquireTimeoutError);
      expect((error as AcquireTimeoutError).attempts).toBeGreaterThan(1);
      expect(await locked(client, ["x", "y", "z"])).toEqual([false, false, true]);
      setTimeout(() => void blocker.release(), 100);
      const held = await multi.acquire({ waitMs: 5_000 });
      expect(held.fenceOf("z")).toBeGreaterThan(blocker.fence);
      await held.release();
    });

    it("same hash tag: acquire and release are one request each; separate tags cost one per tag", async () => {
      const { client, requests } = await make();
      const same = client.multiLock(["{acct}:alice", "{acct}:bob", "{acct}:carol"]);
      const cross = client.multiLock(["alice", "bob", "carol"]);
      expect([same.slotGroups, cross.slotGroups]).toEqual([1, 3]);
      await (await same.acquire()).release(); // warm the script cache (EVALSHA → EVAL once)
      await (await cross.acquire()).release();
      const count = async (fn: () => Promise<unknown>) => {
        const before = requests.total;
        await fn();
        return requests.total - before;
      };
      let held = await same.acquire();
      expect(await count(() => same.acquire().then((h) => h.release()))).toBe(2); // re-entry + its release
      expect(await count(() => held.release())).toBe(1);
      expect(await count(async () => (held = await same.acquire()))).toBe(1);
      await held.release();
      expect(await count(async () => (held = await cross.acquire()))).toBe(3);
      expect(await count(() => held.release())).toBe(3);
      const blocker = await client.lock("{acct}:carol").acquire({ leaseMs: 10_000 });
      expect(await count(() => same.tryAcquire())).toBe(1);
      expect(await locked(client, ["{acct}:alice", "{acct}:bob"])).toEqual([false, false]);
      await blocker.release();
      // Busy at the last of three tags: the two groups it had taken are given back, one each.
      const last = await client.lock("carol").acquire({ leaseMs: 10_000 });
      const rolledBack = async () => {
        expect(await cross.tryAcquire()).toBeNull();
        await client.settled();
      };
      await rolledBack(); // warm the rollback script's cache (EVALSHA → EVAL once per group)
      expect(await count(rolledBack)).toBe(3 + 2);
      expect(await locked(client, ["alice", "bob"])).toEqual([false, false]);
      await last.release();
    });

    it("same hash tag, a fresh client (no server time yet): acquire and release one request each", async () => {
      const prefix = keyPrefix();
      const names = ["{acct}:alice", "{acct}:bob", "{acct}:carol"];
      const { client: warm } = await make({ prefix });
      await (await warm.multiLock(names).acquire()).release(); // scripts loaded
      const fresh = await make({ prefix });
      const held = await fresh.client.multiLock(names).acquire();
      expect(fresh.requests.total).toBe(1);
      await held.release();
      expect(fresh.requests.total).toBe(2);
    });

    it("overlapping multi-locks listed in opposite orders never deadlock and never overlap", async () => {
      const { client } = await make();
      const sets = [
        ["p", "q", "r"],
        ["r", "q", "p"],
        ["q", "{t}:s", "{t}:u"],
        ["{t}:u", "p"],
        ["{t}:s", "{t}:u", "r"],
      ];
      const recorders = new Map<string, IntervalRecorder>();
      const recorder = (name: string) =>
        recorders.get(name) ?? recorders.set(name, new IntervalRecorder()).get(name)!;
      await Promise.all(
        sets.map(async (names, w) => {
          const multi = client.multiLock(names);
          for (let round = 0; round < 4; round++) {
            await multi.withLock(
              async (held) => {
                const sections = names.map((n) => recorder(n).enter(`w${w}`, held.fenceOf(n)));
                await delay(3);
                for (const s of sections) s.exit();
              },
              { waitMs: 25_000, leaseMs: 5_000 },
            );
          }
        }),
      );
      for (const [name, r] of recorders) {
        expect(r.overlaps(), name).toEqual([]);
        expect(r.fencesIncreasingInGrantOrder(), name).toBe(true);
      }
      expect(await locked(client, ["p", "q", "r", "{t}:s", "{t}:u"])).toEqual([
        false,
        false,
        false,
        false,
        false,
      ]);
    });

    it("re-enters on the same handle and shares ownership with Lock handles of the same owner", async () => {
      const { client } = await make();
      const owner = "shared-owner-0123456789";
      const multi = client.multiLock(["m1", "{g}:m2", "{g}:m3"], { owner });
      const outer = await multi.acquire();
      const inner = await multi.acquire();
      expect(inner.fences).toEqual(outer.fences);
      expect(await client.lock("{g}:m2", { owner }).holdCount()).toBe(2);
      const plain = await client.lock("m1", { owner }).acquire();
      expect(plain.fence).toBe(outer.fenceOf("m1"));
      await inner.release();
      await plain.release();
      expect(await client.lock("m1", { owner }).holdCount()).toBe(1);
      expect(inner.signal.aborted).toBe(false);
      await outer.release();
      expect(await locked(client, ["m1", "{g}:m2", "{g}:m3"])).toEqual([false, false, false]);
      await expect(outer.release()).rejects.toBeInstanceOf(NotHeldError);
    });

    it("the keeper renews every part; losing any part aborts the signal", async () => {
      const { client } = await make({ leaseMs: 300 });
      const held = await client.multiLock(["k1", "k2", "{h}:k3", "{h}:k4"]).acquire();
      await delay(800);
      expect(held.signal.aborted).toBe(false);
      expect(await locked(client, ["k1", "k2", "{h}:k3", "{h}:k4"])).toEqual([
        true,
        true,
        true,
        true,
      ]);
      expect(await client.lock("{h}:k4").forceUnlock()).toBe(true);
      const reason = (await aborted(held.signal, 3_000)) as LeaseLostError;
      expect(reason.reason).toBe("gone");
      await expect(held.release()).rejects.toBeInstanceOf(NotHeldError);
      expect(await locked(client, ["k1", "k2", "{h}:k3"])).toEqual([false, false, false]);
    });

    it("a fixed lease expires on every part and the signal aborts at the local deadline", async () => {
      const { client } = await make();
      const held = await client.multiLock(["f1", "f2"]).acquire({ leaseMs: 200 });
      expect(((await aborted(held.signal, 3_000)) as LeaseLostError).reason).toBe("deadline");
      const free = () => locked(client, ["f1", "f2"]).then((l) => l.join());
      expect(await settlesTo(free, "false,false")).toBe("false,false");
    });

    it("extend sets every part's lease; fences increase per name across acquisitions", async () => {
      const { client } = await make();
      const multi = client.multiLock(["e1", "{e}:e2", "{e}:e3"]);
      const first = await multi.acquire({ leaseMs: 200 });
      await first.extend(5_000);
      for (const name of multi.names)
        expect(await client.lock(name).remainingMs()).toBeGreaterThan(1_000);
      await first.release();
      const second = await multi.acquire({ leaseMs: 5_000 });
      for (const name of multi.names)
        expect(second.fenceOf(name)).toBeGreaterThan(first.fenceOf(name));
      await second.release();
    });

    it("a waiter queues at its first name, in one FIFO with Lock waiters, and is handed it first", async () => {
      const { client } = await make();
      const order: string[] = [];
      const holder = await client.lock("q1").acquire({ leaseMs: 10_000 });
      const multi = client
        .multiLock(["q1", "q2"])
        .acquire({ waitMs: 10_000 })
        .then((held) => (order.push("multi"), held));
      await delay(150); // queued at q1, first
      const lock = client
        .lock("q1")
        .acquire({ waitMs: 10_000 })
        .then((held) => (order.push("lock"), held));
      await delay(150); // queued at q1, second
      await holder.release(); // q1 is handed to the head: the multi-lock, which takes q2 too
      const held = await multi;
      expect(await locked(client, ["q1", "q2"])).toEqual([true, true]);
      expect(held.fenceOf("q1")).toBeGreaterThan(holder.fence);
      await held.release();
      await (await lock).release();
      expect(order).toEqual(["multi", "lock"]);
    });

    it("a queued waiter that gives up leaves the queue: the next waiter is handed the name", async () => {
      const { client } = await make();
      const holder = await client.lock("gq1").acquire({ leaseMs: 10_000 });
      const error = await client
        .multiLock(["gq1", "gq2"])
        .acquire({ waitMs: 300 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AcquireTimeoutError);
      await client.settled(); // its leave (the abandon of its queued attempt) has run
      const next = client.lock("gq1").acquire({ waitMs: 10_000 });
      await delay(100);
      const released = Date.now();
      await holder.release();
      const held = await next;
      // handed at the release (no grant reserved for the waiter that left, no claim window lost)
      expect(Date.now() - released).toBeLessThan(1_000);
      await held.release();
      expect(await locked(client, ["gq1", "gq2"])).toEqual([false, false]);
    });

    it("abort mid-wait rejects with the signal's reason and leaves nothing held", async () => {
      const { client } = await make();
      const blocker = await client.lock("ab2").acquire({ leaseMs: 10_000 });
      const controller = new AbortController();
      const waiting = client
        .multiLock(["ab1", "ab2"])
        .acquire({ waitMs: 10_000, signal: controller.signal });
      await delay(150);
      controller.abort(new Error("caller gave up"));
      const error = await waiting.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AbortedError);
      await client.settled();
      expect(await locked(client, ["ab1", "ab2"])).toEqual([false, true]);
      await blocker.release();
    });

    it("toJSON/resume hands the lease to another client that can extend and release it", async () => {
      const first = await make();
      const names = ["r1", "{rs}:r2", "{rs}:r3"];
      const held = await first.client.multiLock(names).acquire({ leaseMs: 5_000 });
      const lease = JSON.parse(JSON.stringify(held)) as ReturnType<typeof held.toJSON>;
      const second = makeTestClient(await target.makeRedis(), { prefix: lease.prefix });
      const resumed = second.client.multiLock(names).resume(lease);
      expect(resumed.fences).toEqual(held.fences);
      await resumed.extend(8_000);
      await resumed.release();
      expect(await locked(second.client, names)).toEqual([false, false, false]);
      expect(() => second.client.multiLock(["r1"]).resume(lease)).toThrow(/lease\.names/);
    });

    it("validates arguments before any request", async () => {
      const { client, requests } = await make();
      expect(() => client.multiLock([])).toThrow(InvalidArgumentError);
      expect(() => client.multiLock("a" as never)).toThrow(/names/);
      expect(() => client.multiLock(["a", ""])).toThrow(/names\[1\]/);
      expect(() => client.multiLock([client.lock("a") as never])).toThrow(/lock\.name/);
      expect(() => client.multiLock(Array.from({ length: 65 }, (_, i) => `n${i}`))).toThrow(
        /at most 64/,
      );
      expect(client.multiLock(["d", "d", "c"]).names).toEqual(["c", "d"]);
      const multi = client.multiLock(["v1", "v2"]);
      await expect(multi.acquire({ waitMs: -1 })).rejects.toThrow(/options\.waitMs/);
      await expect(multi.tryAcquire({ leaseMs: 0 })).rejects.toThrow(/options\.leaseMs/);
      await expect(multi.withLock("fn" as never)).rejects.toThrow(/fn/);
      expect(requests.total).toBe(0);
      const held = await multi.acquire();
      expect(() => held.fenceOf("nope")).toThrow(/name/);
      await expect(held.extend(0)).rejects.toThrow(/ms/);
      await held.release();
    });
  });
}
