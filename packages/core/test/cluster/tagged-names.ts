import { IntervalRecorder, keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import { lockKeys, semaphoreKeys, slotTagOf } from "../../src/keys.ts";
import { slotOf } from "../../src/cluster-slot.ts";
import type { ClientOptions, RedisInput } from "../../src/index.ts";
import { QUARANTINED } from "../quarantine-support.ts";
import { delay, eventsOf, makeTestClient } from "../support.ts";

export interface TaggedNamesTarget {
  readonly name: string;
  makeRedis(): RedisInput | Promise<RedisInput>;
}

/**
 * Every primitive under names that carry their own `{tag}` (how callers co-locate names on Redis
 * Cluster), and under names whose braces are not a tag. The conformance suites cover plain names.
 */
export function runTaggedNamesSuite(target: TaggedNamesTarget): void {
  describe(`user-given {tags} on Redis Cluster: ${target.name}`, () => {
    const make = async (options: Omit<ClientOptions, "redis"> = {}) =>
      makeTestClient(await target.makeRedis(), { prefix: keyPrefix(), ...options });

    it("a name's own tag decides the slot of all its keys", () => {
      const keys = Object.values(lockKeys("p", "orders{42}"));
      expect(new Set(keys.map((key) => slotOf(/\{([^}]*)\}/.exec(key)![1]!)))).toEqual(
        new Set([slotOf("42")]),
      );
      expect(slotTagOf("orders{42}")).toBe("42");
      expect(slotTagOf("invoices{42}")).toBe("42");
      expect(
        Object.values(semaphoreKeys("p", "pool{42}")).every((key) => key.includes("{42}")),
      ).toBe(true);
    });

    it("Lock: 10 contenders on orders{42}, no overlap, fences increasing", async () => {
      const { client } = await make();
      const recorder = new IntervalRecorder();
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          client.lock("orders{42}").withLock(
            async (held) => {
              const section = recorder.enter(`w${i}`, held.fence);
              await delay(3);
              section.exit();
            },
            { waitMs: 20_000 },
          ),
        ),
      );
      expect(recorder.overlaps()).toEqual([]);
      expect(recorder.fencesIncreasingInGrantOrder()).toBe(true);
      // Same tag, other name: its own lock, not orders{42}'s.
      const other = await client.lock("invoices{42}").tryAcquire();
      expect(other).not.toBeNull();
      await other!.release();
    });

    it("FairLock and ReadWriteLock under tagged names", async () => {
      const { client } = await make();
      const fair = await client.fairLock("queue{42}").acquire();
      const waiting = client.fairLock("queue{42}").acquire({ waitMs: 10_000 });
      await delay(50);
      await fair.release();
      await (await waiting).release();
      const a = await client.readWriteLock("doc{7}").read.acquire();
      const b = await client.readWriteLock("doc{7}").read.acquire();
      expect(await client.readWriteLock("doc{7}").write.tryAcquire()).toBeNull();
      await a.release();
      await b.release();
      const w = await client.readWriteLock("doc{7}").write.acquire();
      expect(w.fence).toBeGreaterThan(0);
      await w.release();
    });

    it("Semaphore, PermitExpirableSemaphore and CountDownLatch under tagged names", async () => {
      const { client } = await make();
      const sem = client.semaphore("pool{7}");
      expect(await sem.trySetPermits(2)).toBe(true);
      const two = await sem.acquire({ permits: 2 });
      expect(await sem.tryAcquire()).toBeNull();
      await two.release();
      const permits = client.permitExpirableSemaphore("permits{7}");
      expect(await permits.trySetPermits(1)).toBe(true);
      const permit = await permits.acquire({ leaseMs: 5_000 });
      expect(await permits.tryAcquire()).toBeNull();
      await permit.release();
      const latch = client.countDownLatch("latch{7}");
      expect(await latch.trySetCount(2)).toBe(true);
      const opened = latch.await({ waitMs: 10_000 });
      await latch.countDown();
      await latch.countDown();
      expect(await opened).toBe(true);
    });

    it("MultiLock: one tag is one request; tags on different masters are one request each", async () => {
      const { client, requests } = await make();
      const same = client.multiLock(["a{42}", "b{42}", "c{42}"]);
      const spread = client.multiLock(["a{1}", "b{2}", "c{3}"]);
      expect([same.slotGroups, spread.slotGroups]).toEqual([1, 3]);
      await (await same.acquire()).release(); // warm the script cache of every master
      await (await spread.acquire()).release();
      const before = requests.total;
      const held = await same.acquire();
      expect(requests.total - before).toBe(1);
      const parts = await spread.acquire();
      expect(await client.lock("b{2}").tryAcquire()).toBeNull();
      await Promise.all([held.release(), parts.release()]);
      expect(await client.lock("b{2}").isLocked()).toBe(false);
    });

    it("braces that are not a tag ({}, }{, unbalanced) still keep every key in one slot", async () => {
      const { client } = await make();
      for (const name of ["{}empty", "}{odd", "open{", "a}b{c}"]) {
        const held = await client.lock(name).acquire();
        expect(await client.lock(name).tryAcquire()).toBeNull();
        await held.release();
      }
    });

    it("restart quarantine with one sentinel per slot: a first grant is refused without CROSSSLOT", async () => {
      const { client, events } = await make({ ...QUARANTINED, quarantineScope: "slot" });
      expect(await client.lock("orders{42}").tryAcquire()).toBeNull();
      expect(eventsOf(events, "quarantined")).toHaveLength(1);
    });
  });
}
