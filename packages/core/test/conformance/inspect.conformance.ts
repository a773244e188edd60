import { keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import {
  inspect,
  InvalidArgumentError,
  maskId,
  quorumLock,
  type ClientOptions,
  type EdgelockClient,
  type RedisInput,
} from "../../src/index.ts";
import { makeTestClient } from "../support.ts";
import { until } from "./waiter-support.ts";

export interface InspectConformanceTarget {
  readonly name: string;
  makeRedis(): RedisInput | Promise<RedisInput>;
}

/** Queues `count` waiters on `name` one after the other; `stop()` aborts them all. */
async function queueWaiters(client: EdgelockClient, name: string, owners: readonly string[]) {
  const controller = new AbortController();
  const inspector = inspect(client);
  const pending: Promise<unknown>[] = [];
  for (const [i, owner] of owners.entries()) {
    pending.push(
      client
        .lock(name, { owner })
        .acquire({ waitMs: 30_000, signal: controller.signal })
        .catch(() => undefined),
    );
    await until(
      async () => ((await inspector.describe(name, { kind: "lock" }))?.waiters.length ?? 0) > i,
      10_000,
      `waiter ${i} queued`,
    );
  }
  return { stop: async () => (controller.abort(), await Promise.all(pending)) };
}

/** The inspection API, identical on every backend. */
export function runInspectConformance(target: InspectConformanceTarget): void {
  describe(`inspection: ${target.name}`, () => {
    const make = async (options: Omit<ClientOptions, "redis"> = {}) =>
      makeTestClient(await target.makeRedis(), { prefix: keyPrefix(), ...options });

    it("describes a held lock in one request: masked owner, count, lease, fence, waiters in order", async () => {
      const { client, requests } = await make();
      const inspector = inspect(client);
      const owner = "owner-of-orders-42-0123456789";
      const lock = client.lock("orders:42", { owner });
      const held = await lock.acquire({ leaseMs: 20_000 });
      await lock.acquire({ leaseMs: 20_000 }); // re-entry
      // The waiters poll on a client of their own, so their background polls never count as the
      // describe's requests below.
      const waiting = makeTestClient(await target.makeRedis(), { prefix: client.context.prefix });
      const waiters = await queueWaiters(waiting.client, "orders:42", [
        "waiter-one-aaaaaaaa",
        "waiter-two-bbbbbbbb",
      ]);
      try {
        await inspector.describe("orders:42"); // loads the script (NOSCRIPT → EVAL once)
        const before = requests.total;
        const d = await inspector.describe("orders:42");
        expect(requests.total - before).toBe(1);
        expect(d).toMatchObject({
          name: "orders:42",
          kind: "lock",
          fence: held.fence,
          permits: null,
          count: null,
          truncated: false,
        });
        expect(d?.holders).toEqual([
          {
            owner: maskId(owner),
            count: 2,
            remainingMs: expect.any(Number),
            fence: held.fence,
            mode: "exclusive",
            claimed: true,
          },
        ]);
        expect(d?.holders[0]?.remainingMs).toBeGreaterThan(0);
        expect(d?.holders[0]?.remainingMs).toBeLessThanOrEqual(20_000);
        expect(d?.waiters.map((w) => [w.owner, w.position, w.permits])).toEqual([
          [maskId("waiter-one-aaaaaaaa"), 1, 1],
          [maskId("waiter-two-bbbbbbbb"), 2, 1],
        ]);
        expect(d?.waiters.every((w) => w.deadlineMs >= 0)).toBe(true);
        const revealed = await inspector.describe("orders:42", { revealOwners: true });
        expect(revealed?.holders[0]?.owner).toBe(owner);
        expect(revealed?.waiters[0]?.owner).toBe("waiter-one-aaaaaaaa");
      } finally {
        await waiters.stop();
      }
    });

    it("lists names with their kind; a released lock leaves the list though its fence counter stays", async () => {
      const { client } = await make();
      const inspector = inspect(client);
      const lock = await client.lock("a:lock").acquire();
      await client.lock("{tag}member").acquire();
      await client.fairLock("b:fair").acquire();
      await client.readWriteLock("c:rw").read.acquire();
      await client.semaphore("d:sem").trySetPermits(3);
      await client.permitExpirableSemaphore("e:pes").trySetPermits(2);
      await client.countDownLatch("f:latch").trySetCount(2);
      await quorumLock([client], "g:quorum").acquire();
      const all = await inspector.listAll();
      expect(all.truncated).toBe(false);
      expect(all.entries).toEqual([
        { name: "a:lock", kind: "lock" },
        { name: "b:fair", kind: "fair-lock" },
        { name: "c:rw", kind: "read-write-lock" },
        { name: "d:sem", kind: "semaphore" },
        { name: "e:pes", kind: "permit-expirable-semaphore" },
        { name: "f:latch", kind: "count-down-latch" },
        { name: "g:quorum", kind: "quorum-lock" },
        { name: "{tag}member", kind: "lock" },
      ]);
      expect((await inspector.listAll({ match: "[a-c]:*" })).entries.map((e) => e.name)).toEqual([
        "a:lock",
        "b:fair",
        "c:rw",
      ]);
      await lock.release();
      expect((await inspector.listAll({ match: "a:*" })).entries).toEqual([]);
      expect(await inspector.describe("a:lock")).toBeNull();
    });

    it("pages with a cursor and a bounded count, and the pages together hold every name", async () => {
      const { client } = await make();
      const inspector = inspect(client);
      const names = Array.from({ length: 25 }, (_, i) => `page:${i}`);
      await Promise.all(names.map((n) => client.lock(n).acquire()));
      const seen = new Set<string>();
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await inspector.list({
          count: 5,
          ...(cursor === undefined ? {} : { cursor }),
        });
        for (const e of page.entries) seen.add(e.name);
        cursor = page.next ?? undefined;
        pages++;
      } while (cursor !== undefined && pages < 100);
      expect([...seen].sort()).toEqual([...names].sort());
      const limited = await inspector.listAll({ limit: 10 });
      expect(limited.entries).toHaveLength(10);
      expect(limited.truncated).toBe(true);
    });

    it("describes the other kinds: read-write, semaphores, latch, quorum", async () => {
      const { client } = await make();
      const inspector = inspect(client);
      const rw = client.readWriteLock("rw", { owner: "reader-one-xxxxxxxx" });
      const read = await rw.read.acquire({ leaseMs: 10_000 });
      await client
        .readWriteLock("rw", { owner: "reader-two-yyyyyyyy" })
        .read.acquire({ leaseMs: 15_000 });
      const d = await inspector.describe("rw", { revealOwners: true });
      expect(d?.kind).toBe("read-write-lock");
      expect(d?.holders.map((h) => [h.owner, h.mode, h.count])).toEqual([
        ["reader-one-xxxxxxxx", "read", 1],
        ["reader-two-yyyyyyyy", "read", 1],
      ]);
      expect(d?.holders[0]?.fence).toBe(read.fence);

      const sem = client.semaphore("sem");
      await sem.trySetPermits(3);
      await sem.acquire({ permits: 2 });
      expect(await inspector.describe("sem")).toMatchObject({
        kind: "semaphore",
        permits: { available: 1, total: 3 },
        holders: [],
        waiters: [],
      });

      const pes = client.permitExpirableSemaphore("pes");
      await pes.trySetPermits(2);
      const permit = await pes.acquire({ leaseMs: 10_000 });
      const p = await inspector.describe("pes", { revealOwners: true });
      expect(p).toMatchObject({
        kind: "permit-expirable-semaphore",
        permits: { available: 1, total: 2 },
      });
      expect(p?.holders).toEqual([
        {
          owner: permit.id,
          count: 1,
          remainingMs: expect.any(Number),
          fence: null,
          mode: "permit",
          claimed: true,
        },
      ]);

      await client.countDownLatch("latch").trySetCount(3);
      await client.countDownLatch("latch").countDown();
      expect(await inspector.describe("latch")).toMatchObject({
        kind: "count-down-latch",
        count: 2,
        holders: [],
      });

      const q = await quorumLock([client], "quorum").acquire({ leaseMs: 10_000 });
      expect(await inspector.describe("quorum")).toMatchObject({
        kind: "quorum-lock",
        fence: q.fence,
        holders: [{ count: 1, fence: q.fence, mode: "exclusive" }],
      });
    });

    it("asked for a kind, describes only that kind of a name that holds several", async () => {
      const { client } = await make();
      const inspector = inspect(client);
      await client.lock("both").acquire();
      await client.semaphore("both").trySetPermits(1);
      expect((await inspector.describe("both"))?.kind).toBe("lock");
      expect((await inspector.describe("both", { kind: "semaphore" }))?.kind).toBe("semaphore");
      expect(await inspector.describe("both", { kind: "fair-lock" })).toBeNull();
    });

    it("force-unlocks a lock and hands it to the first waiter; refuses kinds without holds", async () => {
      const { client } = await make();
      const inspector = inspect(client);
      const held = await client.lock("stuck").acquire({ leaseMs: 30_000 });
      const next = client.lock("stuck").acquire({ waitMs: 20_000 });
      await until(async () => ((await inspector.describe("stuck"))?.waiters.length ?? 0) === 1);
      expect(await inspector.forceUnlock("stuck")).toBe(true);
      const granted = await next;
      expect(granted.fence).toBeGreaterThan(held.fence);
      await granted.release();
      expect(await inspector.forceUnlock("stuck")).toBe(false);
      const w = await client.readWriteLock("rw").write.acquire();
      expect(await inspector.forceUnlock("rw", { kind: "read-write-lock" })).toBe(true);
      expect(await client.readWriteLock("rw").write.isLocked()).toBe(false);
      void w;
      await client.semaphore("sem").trySetPermits(1);
      await expect(inspector.forceUnlock("sem")).rejects.toThrow(InvalidArgumentError);
    });

    it("validates every argument before any request", async () => {
      const { client, requests } = await make();
      const inspector = inspect(client);
      const argumentOf = (p: Promise<unknown>) =>
        p.then(
          () => null,
          (e: unknown) => (e as InvalidArgumentError).argument,
        );
      expect(await argumentOf(inspector.describe(""))).toBe("name");
      expect(await argumentOf(inspector.describe("x", { kind: "mutex" as never }))).toBe(
        "options.kind",
      );
      expect(await argumentOf(inspector.describe("x", { limit: 0 }))).toBe("options.limit");
      expect(await argumentOf(inspector.describe("x", { revealOwners: "yes" as never }))).toBe(
        "options.revealOwners",
      );
      expect(await argumentOf(inspector.list({ count: 5_000 }))).toBe("options.count");
      expect(await argumentOf(inspector.list({ cursor: "abc" }))).toBe("options.cursor");
      expect(await argumentOf(inspector.list({ match: "[oops" }))).toBe("options.match");
      expect(await argumentOf(inspector.listAll({ limit: -1 }))).toBe("options.limit");
      expect(await argumentOf(inspector.forceUnlock("x", { kind: "nope" as never }))).toBe(
        "options.kind",
      );
      expect(() => inspect({} as never)).toThrow(InvalidArgumentError);
      expect(requests.total).toBe(0);
    });
  });
}
