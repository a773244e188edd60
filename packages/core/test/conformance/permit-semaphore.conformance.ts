import { keyPrefix } from "@edgelock/testkit";
import { describe, expect, it, vi } from "vitest";
import {
  AbortedError,
  AcquireTimeoutError,
  InvalidArgumentError,
  LeaseLostError,
  NotHeldError,
  type ClientOptions,
  type Permit,
  type RedisInput,
} from "../../src/index.ts";
import { permitSemaphoreKeys } from "../../src/keys.ts";
import {
  runAcquire,
  runRelease,
  type PermitSemaphoreRef,
} from "../../src/permit-semaphore/calls.ts";
import {
  aborted,
  delay,
  eventsOf,
  makeTestClient,
  settlesTo,
  type TestClient,
} from "../support.ts";

/** An operation with a fixed id: repeating it replays one operation. */
const opOf = (id: string) => ({ id, deadline: undefined as number | undefined });

export interface PermitSemaphoreConformanceTarget {
  readonly name: string;
  makeRedis(): RedisInput | Promise<RedisInput>;
}

function refOf(t: TestClient, name: string): PermitSemaphoreRef {
  const ctx = t.client.context;
  return { ctx, name, keys: permitSemaphoreKeys(ctx.prefix, name) };
}

/** The PermitExpirableSemaphore's behaviour, identical on every backend. */
export function runPermitSemaphoreConformance(target: PermitSemaphoreConformanceTarget): void {
  describe(`PermitExpirableSemaphore conformance: ${target.name}`, () => {
    const make = async (options: Omit<ClientOptions, "redis"> = {}) =>
      makeTestClient(await target.makeRedis(), { prefix: keyPrefix(), ...options });

    it("each permit has its own id and an increasing fence; release frees it", async () => {
      const { client } = await make();
      const sem = client.permitExpirableSemaphore("basic");
      expect(await sem.trySetPermits(2)).toBe(true);
      expect(await sem.trySetPermits(3)).toBe(false);
      const a = await sem.acquire({ leaseMs: 10_000 });
      const b = await sem.acquire({ leaseMs: 10_000 });
      expect(a.id).not.toBe(b.id);
      expect(b.fence).toBeGreaterThan(a.fence);
      expect(await sem.tryAcquire()).toBeNull();
      expect(await sem.status()).toMatchObject({ set: true, available: 0, total: 2, live: 2 });
      await a.release();
      await expect(a.release()).rejects.toBeInstanceOf(NotHeldError);
      expect(await sem.availablePermits()).toBe(1);
      expect(await sem.tryRelease(b.id)).toBe(true);
      expect(await sem.tryRelease(b.id)).toBe(false);
      await expect(b.release()).rejects.toBeInstanceOf(NotHeldError);
      expect(await sem.availablePermits()).toBe(2);
    });

    it("a fixed lease runs out by the server's clock: the permit returns to the pool and its signal aborts", async () => {
      const { client, events } = await make();
      const sem = client.permitExpirableSemaphore("expire");
      await sem.trySetPermits(1);
      const permit = await sem.acquire({ leaseMs: 200 });
      const reason = await aborted(permit.signal, 3_000);
      expect(reason).toBeInstanceOf(LeaseLostError);
      expect((reason as LeaseLostError).reason).toBe("deadline");
      expect(await settlesTo(() => sem.availablePermits(), 1)).toBe(1);
      const next = await sem.acquire({ leaseMs: 10_000 });
      expect(next.fence).toBeGreaterThan(permit.fence);
      await expect(permit.release()).rejects.toBeInstanceOf(NotHeldError);
      expect(eventsOf(events, "renewed")).toHaveLength(0);
      await next.release();
    });

    // Expired permits are purged only when none looks free (a free permit makes the purge
    // pointless for a take), so an expired one may still sit in the permits zset: its release
    // must still say it was not held, and its slot must count as free.
    it("a permit that expired while others stayed free is not released, though no purge dropped it", async () => {
      const { client } = await make();
      const sem = client.permitExpirableSemaphore("expired-unpurged");
      await sem.trySetPermits(3);
      const short = await sem.acquire({ leaseMs: 200 });
      const other = await sem.acquire({ leaseMs: 10_000 });
      await delay(400);
      const third = await sem.acquire({ leaseMs: 10_000 }); // one still looked free: no purge
      expect(await sem.status()).toMatchObject({ available: 1, live: 2 });
      expect(await sem.tryRelease(short.id)).toBe(false);
      await expect(short.release()).rejects.toBeInstanceOf(NotHeldError);
      const fourth = await sem.acquire({ leaseMs: 10_000 });
      expect(await sem.tryAcquire({ leaseMs: 10_000 })).toBeNull();
      for (const p of [other, third, fourth]) await p.release();
      expect(await sem.availablePermits()).toBe(3);
    });

    it("expiry follows the server's clock only: a client wall clock far ahead changes nothing", async () => {
      const { client } = await make();
      const sem = client.permitExpirableSemaphore("skew");
      await sem.trySetPermits(1);
      const permit = await sem.acquire({ leaseMs: 10_000 });
      const spy = vi.spyOn(Date, "now").mockReturnValue(Date.now() + 3_600_000);
      try {
        expect(await sem.tryAcquire({ leaseMs: 10_000 })).toBeNull();
        expect(await sem.status()).toMatchObject({ available: 0, live: 1 });
      } finally {
        spy.mockRestore();
      }
      await permit.release();
    });

    it("a waiter gets the permit of a holder that died (its lease ran out)", async () => {
      const { client } = await make();
      const sem = client.permitExpirableSemaphore("dead-holder");
      await sem.trySetPermits(1);
      await sem.acquire({ leaseMs: 300 }); // never released: the holder "died"
      const permit = await sem.acquire({ waitMs: 10_000, leaseMs: 10_000 });
      expect(permit.signal.aborted).toBe(false);
      await permit.release();
    });

    // 600 ms leases (the keeper renews at a third): 300 ms is lost to one slow renewal under load.
    it("the keeper renews a permit without leaseMs past several leases and stops at release", async () => {
      const { client, events } = await make({ leaseMs: 600 });
      const sem = client.permitExpirableSemaphore("kept");
      await sem.trySetPermits(1);
      const permit = await sem.acquire();
      await delay(2_000);
      expect(permit.signal.aborted).toBe(false);
      expect(await sem.availablePermits()).toBe(0);
      expect(eventsOf(events, "renewed").length).toBeGreaterThanOrEqual(3);
      await permit.release();
      const renewals = eventsOf(events, "renewed").length;
      await delay(400);
      expect(eventsOf(events, "renewed").length).toBe(renewals);
      expect(permit.signal.aborted).toBe(false);
    });

    it("the keeper stops at maxHoldMs and the permit ends with reason max-hold", async () => {
      const { client } = await make({ leaseMs: 300 });
      const sem = client.permitExpirableSemaphore("max-hold");
      await sem.trySetPermits(1);
      const permit = await sem.acquire({ maxHoldMs: 500 });
      const reason = (await aborted(permit.signal, 3_000)) as LeaseLostError;
      expect(reason.reason).toBe("max-hold");
      expect(await settlesTo(() => sem.availablePermits(), 1)).toBe(1);
    });

    it("a permit released behind the holder's back is reported lost at the next renewal", async () => {
      const { client } = await make({ leaseMs: 300 });
      const sem = client.permitExpirableSemaphore("stolen");
      await sem.trySetPermits(1);
      const permit = await sem.acquire();
      expect(await sem.tryRelease(permit.id)).toBe(true);
      const reason = (await aborted(permit.signal, 2_000)) as LeaseLostError;
      expect(reason.reason).toBe("gone");
      await expect(permit.extend(1_000)).rejects.toBeInstanceOf(NotHeldError);
    });

    // A release deletes the lease version only when its copy may have renewed the permit; an
    // entry another copy's renewal made stays behind, but in a hash whose ttl is bounded.
    it("a version left by another copy's renewal lives only as long as its hash's bounded ttl", async () => {
      const t = await make();
      const sem = t.client.permitExpirableSemaphore("orphan-version");
      await sem.trySetPermits(1);
      const original = await sem.acquire({ leaseMs: 2_000 });
      await sem.resume(original.toJSON()).extend(2_000); // another copy renews: version 1
      await original.release(); // this copy never renewed: it leaves the version entry
      const { versions } = refOf(t, "orphan-version").keys;
      const command = (...args: string[]) =>
        t.client.context.backend.command(args, AbortSignal.timeout(5_000));
      expect(Number(await command("HEXISTS", versions, original.id))).toBe(1);
      const pttl = Number(await command("PTTL", versions));
      expect(pttl).toBeGreaterThan(0);
      expect(pttl).toBeLessThanOrEqual(2_000 + 1_000);
      expect(await sem.status()).toMatchObject({ available: 1, live: 0 });
    });

    it("extend sets the remaining lease and moves the local deadline", async () => {
      const { client } = await make();
      const sem = client.permitExpirableSemaphore("extend");
      await sem.trySetPermits(1);
      const permit = await sem.acquire({ leaseMs: 200 });
      await permit.extend(5_000);
      await delay(300);
      expect(permit.signal.aborted).toBe(false);
      expect(await sem.availablePermits()).toBe(0);
      await permit.release();
    });

    it("toJSON/resume hands a permit to another client that can extend and release it", async () => {
      const first = await make();
      const sem = first.client.permitExpirableSemaphore("handoff");
      await sem.trySetPermits(1);
      const permit = await sem.acquire({ leaseMs: 5_000 });
      const json = JSON.parse(JSON.stringify(permit)) as ReturnType<Permit["toJSON"]>;
      const second = makeTestClient(await target.makeRedis(), { prefix: json.prefix });
      const resumed = second.client.permitExpirableSemaphore("handoff").resume(json);
      expect(resumed.id).toBe(permit.id);
      expect(resumed.fence).toBe(permit.fence);
      await resumed.extend(8_000);
      await resumed.release();
      expect(await sem.availablePermits()).toBe(1);
      expect(() => second.client.permitExpirableSemaphore("other").resume(json)).toThrow(
        /permit\.name/,
      );
    });

    it("exactly once: a replayed acquire returns the same permit; a replayed release frees one", async () => {
      const t = await make();
      const sem = t.client.permitExpirableSemaphore("replay");
      const ref = refOf(t, "replay");
      await sem.trySetPermits(2);
      const take = {
        waiter: "w1",
        leaseMs: 10_000,
        queue: false,
        queuedBefore: false,
        returnWithinMs: 1_000,
        op: opOf("op-take"),
        budgetMs: 1_000,
      };
      const first = await runAcquire(ref, take);
      const again = await runAcquire(ref, take);
      expect(first.reply).toEqual(again.reply);
      expect(await sem.status()).toMatchObject({ available: 1, live: 1 });
      const held = await sem.acquire({ leaseMs: 10_000 });
      expect((await runRelease(ref, "w1", opOf("op-free"), false)).released).toBe(true);
      expect((await runRelease(ref, "w1", opOf("op-free"), false)).released).toBe(true); // recorded answer, no second release
      expect(await sem.status()).toMatchObject({ available: 1, live: 1 });
      await held.release();
    });

    // A Worker makes a client per request: its first request has no server time, only its wall
    // clock (trusted within clockErrorMs, default 1 s). The protocol must not cost it a request.
    for (const skewMs of [0, 900, -900]) {
      it(`a fresh client (wall clock ${skewMs} ms off) acquires, renews and releases in one request each`, async () => {
        const prefix = keyPrefix();
        const warm = makeTestClient(await target.makeRedis(), { prefix });
        await warm.client.permitExpirableSemaphore("fresh").trySetPermits(1);
        const warmPermit = await warm.client.permitExpirableSemaphore("fresh").acquire();
        await warmPermit.extend(5_000); // every script loaded: NOSCRIPT would cost one more
        await warmPermit.release();
        const wallClock = () => Date.now() + skewMs;
        const { client, requests } = makeTestClient(await target.makeRedis(), {
          prefix,
          wallClock,
        });
        const permit = await client.permitExpirableSemaphore("fresh").acquire({ leaseMs: 10_000 });
        expect(requests.total).toBe(1);
        await permit.extend(10_000);
        expect(requests.total).toBe(2);
        await permit.release();
        expect(requests.total).toBe(3);
        const fresh = makeTestClient(await target.makeRedis(), { prefix, wallClock });
        const kept = await fresh.client.permitExpirableSemaphore("fresh").acquire(); // kept alive
        await kept.release();
        expect(fresh.requests.total).toBe(2);
      });
    }

    it("uncontended acquire and release cost one request each", async () => {
      const { client, requests } = await make();
      const sem = client.permitExpirableSemaphore("cost");
      await sem.trySetPermits(1);
      await (await sem.acquire({ leaseMs: 5_000 })).release(); // scripts loaded
      let before = requests.total;
      const permit = await sem.acquire({ leaseMs: 5_000 });
      expect(requests.total - before).toBe(1);
      before = requests.total;
      await permit.release();
      expect(requests.total - before).toBe(1);
    });

    it("waiters are served first-in first-out, and abort leaves the queue", async () => {
      const { client } = await make();
      const sem = client.permitExpirableSemaphore("fifo");
      await sem.trySetPermits(1);
      const holder = await sem.acquire({ leaseMs: 10_000 });
      const order: number[] = [];
      const controller = new AbortController();
      const quitter = sem
        .acquire({ waitMs: 10_000, signal: controller.signal })
        .catch((e: unknown) => e);
      const waiters: Promise<void>[] = [];
      for (const i of [0, 1, 2]) {
        waiters.push(
          (async () => {
            const permit = await sem.acquire({ waitMs: 15_000, leaseMs: 10_000 });
            order.push(i);
            await delay(5);
            await permit.release();
          })(),
        );
        // the next waiter starts only once this one is queued, so arrival order is known
        while ((await sem.status()).waiters < i + 2) await delay(10);
      }
      controller.abort(new Error("gave up"));
      expect(await quitter).toBeInstanceOf(AbortedError);
      await holder.release();
      await Promise.all(waiters);
      expect(order).toEqual([0, 1, 2]);
      await client.settled();
      expect(await sem.status()).toMatchObject({ available: 1, live: 0, waiters: 0 });
    });

    it("10 workers over 2 permits: never more than 2 holders, fences unique", async () => {
      const { client } = await make();
      const sem = client.permitExpirableSemaphore("crowd");
      await sem.trySetPermits(2);
      let holders = 0;
      let maxHolders = 0;
      const fences = new Set<number>();
      await Promise.all(
        Array.from({ length: 10 }, () =>
          sem.withPermit(
            async (permit) => {
              maxHolders = Math.max(maxHolders, ++holders);
              fences.add(permit.fence);
              await delay(10);
              holders--;
            },
            { waitMs: 20_000, leaseMs: 10_000 },
          ),
        ),
      );
      expect(maxHolders).toBeLessThanOrEqual(2);
      expect(fences.size).toBe(10);
      expect(await sem.availablePermits()).toBe(2);
    });

    it("times out with AcquireTimeoutError; validates arguments before any request", async () => {
      const { client, requests } = await make();
      const sem = client.permitExpirableSemaphore("valid");
      await expect(sem.acquire({ leaseMs: 0 })).rejects.toThrow(/options\.leaseMs/);
      await expect(sem.acquire({ waitMs: 1.5 })).rejects.toThrow(/options\.waitMs/);
      await expect(sem.tryAcquire({ maxHoldMs: -1 })).rejects.toThrow(/options\.maxHoldMs/);
      await expect(sem.trySetPermits(-2)).rejects.toThrow(/permits/);
      await expect(sem.tryRelease("")).rejects.toThrow(/permitId/);
      expect(() => sem.resume({ v: 1, kind: "lock" } as never)).toThrow(InvalidArgumentError);
      expect(requests.total).toBe(0);
      await sem.trySetPermits(0);
      expect(await sem.acquire({ waitMs: 100 }).catch((e: unknown) => e)).toBeInstanceOf(
        AcquireTimeoutError,
      );
      await sem.addPermits(1);
      const permit = await sem.acquire({ leaseMs: 5_000 });
      await expect(permit.extend(0)).rejects.toThrow(/ms/);
      await permit.release();
    });
  });
}
