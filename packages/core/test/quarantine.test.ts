import { Redis } from "@upstash/redis";
import { closeAll, keyPrefix, makeNodeRedis, startStack, type Stack } from "@edgelock/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidArgumentError, type LeaseLostError } from "../src/index.ts";
import { LEASE_MS, QUARANTINE_MS, QUARANTINED } from "./quarantine-support.ts";
import { aborted, eventsOf, makeTestClient } from "./support.ts";

// The restart quarantine (docs/guarantees.md): after Redis lost its data, no new grant for
// `quarantineMs`, so a holder that did not notice the loss passes its local deadline first.

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await closeAll();
  await stack.close();
});

const backends = {
  rest: () => Promise.resolve(new Redis({ url: stack.rest.url, token: stack.rest.token })),
  tcp: () => makeNodeRedis(stack.redis.url),
};

describe.sequential("restart quarantine", () => {
  for (const [backend, makeRedis] of Object.entries(backends)) {
    it(`${backend}: a restart without persistence mid-hold quarantines the name; the stale holder aborts first, fences still increase`, async () => {
      const { client, events } = makeTestClient(await makeRedis(), {
        ...QUARANTINED,
        prefix: keyPrefix(),
      });
      expect(await client.initialize()).toMatchObject({ written: 1, existing: 0 });
      const stale = await client.lock("orders:1").acquire({ leaseMs: LEASE_MS });
      expect(eventsOf(events, "quarantined")).toEqual([]); // initialized: the first use is not quarantined
      let staleAbortedAt = Infinity;
      stale.signal.addEventListener("abort", () => (staleAbortedAt = performance.now()));

      await stack.redis.restart({ flush: true });
      const next = client.lock("orders:1");
      expect(await next.tryAcquire()).toBeNull();
      const refused = eventsOf(events, "quarantined");
      expect(refused).toHaveLength(1);
      expect(refused[0]!.remainingMs).toBeGreaterThan(0);
      expect(refused[0]!.remainingMs).toBeLessThanOrEqual(QUARANTINE_MS);

      // A waiter is never failed by the quarantine: it waits it out like a held lock.
      const held = await next.acquire({ waitMs: 10_000 });
      const grantedAt = performance.now();
      expect(staleAbortedAt).toBeLessThan(grantedAt);
      expect(((await aborted(stale.signal, 0)) as LeaseLostError).reason).toBe("deadline");
      expect(held.fence).toBeGreaterThan(stale.fence);
      // The quarantine covers the whole prefix (one sentinel), not just the name that found it.
      expect(await client.lock("orders:2").tryAcquire({ leaseMs: LEASE_MS })).not.toBeNull();
      await held.release();
    });
  }

  it("with the quarantine off (the default), a new holder is granted at once and overlaps the stale one until its local deadline", async () => {
    const { client, events } = makeTestClient(await makeNodeRedis(stack.redis.url), {
      prefix: keyPrefix(),
    });
    const stale = await client.lock("orders:1").acquire({ leaseMs: 8_000 });
    await stack.redis.restart({ flush: true });
    const next = await client.lock("orders:1").tryAcquire({ leaseMs: 8_000 });
    expect(next).not.toBeNull();
    expect(stale.signal.aborted).toBe(false); // the documented overlap: at most one lease
    expect(next!.fence).toBeGreaterThan(stale.fence); // a fenced resource rejects the stale holder
    expect(((await aborted(stale.signal, 15_000)) as LeaseLostError).reason).toBe("deadline");
    expect(eventsOf(events, "quarantined")).toEqual([]);
    await next!.release();
  });

  it("without initialize(), the first grant on a fresh database waits one quarantine, once per prefix", async () => {
    const { client, events } = makeTestClient(await makeNodeRedis(stack.redis.url), {
      ...QUARANTINED,
      prefix: keyPrefix(),
    });
    expect(await client.lock("a").tryAcquire()).toBeNull();
    const held = await client.lock("a").acquire({ waitMs: 10_000 });
    expect(eventsOf(events, "quarantined").length).toBeGreaterThan(0);
    const before = events.length;
    const other = await client.lock("b").tryAcquire();
    expect(other).not.toBeNull();
    expect(eventsOf(events.slice(before), "quarantined")).toEqual([]);
    expect(await client.initialize()).toMatchObject({ written: 0, existing: 1 }); // never cuts a quarantine short
    await Promise.all([held.release(), other!.release()]);
  });

  it("initialize() during a running quarantine leaves it running", async () => {
    const { client } = makeTestClient(await makeNodeRedis(stack.redis.url), {
      ...QUARANTINED,
      prefix: keyPrefix(),
    });
    expect(await client.lock("a").tryAcquire()).toBeNull(); // the first use starts one
    expect(await client.initialize()).toMatchObject({ written: 0, existing: 1 });
    expect(await client.lock("a").tryAcquire()).toBeNull();
    expect(await client.lock("b").tryAcquire()).toBeNull();
  });

  it("with the quarantine on, no renewal may outlast it, nor a grant's claim window", async () => {
    const redis = await makeNodeRedis(stack.redis.url);
    const { client } = makeTestClient(redis, { ...QUARANTINED, prefix: keyPrefix() });
    await client.initialize();
    await client.permitExpirableSemaphore("p").trySetPermits(1);
    const holds = {
      Lock: await client.lock("l").acquire({ leaseMs: LEASE_MS }),
      FairLock: await client.fairLock("f").acquire({ leaseMs: LEASE_MS }),
      "write side": await client.readWriteLock("w").write.acquire({ leaseMs: LEASE_MS }),
      PermitExpirableSemaphore: await client
        .permitExpirableSemaphore("p")
        .acquire({ leaseMs: LEASE_MS }),
      MultiLock: await client.multiLock(["m1", "m2"]).acquire({ leaseMs: LEASE_MS }),
    };
    for (const [kind, held] of Object.entries(holds)) {
      await expect(held.extend(QUARANTINE_MS + 1), kind).rejects.toThrow(/quarantineMs/);
      await held.extend(QUARANTINE_MS); // at the bound: allowed
      expect(held.signal.aborted, kind).toBe(false);
      await held.release();
    }
    expect(() =>
      makeTestClient(redis, { ...QUARANTINED, claimWindowMs: QUARANTINE_MS + 1 }),
    ).toThrow(/options\.quarantineMs/);
  });

  it("with the quarantine on, no lease may outlast it", async () => {
    const redis = await makeNodeRedis(stack.redis.url);
    const { client } = makeTestClient(redis, { ...QUARANTINED, prefix: keyPrefix() });
    await expect(client.lock("x").acquire({ leaseMs: QUARANTINE_MS + 1 })).rejects.toThrow(
      InvalidArgumentError,
    );
    await expect(
      client.permitExpirableSemaphore("x").acquire({ leaseMs: QUARANTINE_MS + 1 }),
    ).rejects.toThrow(/quarantineMs/);
    await expect(
      client.multiLock(["x", "y"]).acquire({ leaseMs: QUARANTINE_MS + 1 }),
    ).rejects.toThrow(/quarantineMs/);
    expect(() => makeTestClient(redis, { quarantineMs: 10_000 })).toThrow(/options\.quarantineMs/); // default lease 30 s
    expect(() => makeTestClient(redis, { ...QUARANTINED, requestTimeoutMs: 5_000 })).toThrow(
      /request timeout/,
    );
    expect(() => makeTestClient(redis, { ...QUARANTINED, sentinelTtlMs: QUARANTINE_MS })).toThrow(
      /sentinelTtlMs/,
    );
    expect(() => makeTestClient(redis, { quarantineScope: "cluster" as never })).toThrow(
      /quarantineScope/,
    );
  });
});
