import {
  closeAll,
  keyPrefix,
  makeNodeRedis,
  startRedis,
  startStack,
  type NodeRedisClient,
  type RedisProcess,
  type Stack,
} from "@edgelock/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quorumLock, type EdgelockClient } from "../src/index.ts";
import { LEASE_MS, QUARANTINE_MS, QUARANTINED } from "./quarantine-support.ts";
import { eventsOf, makeTestClient, type TestClient } from "./support.ts";

// Every granting script runs the one quarantine check (common/quarantine.lua): after a restart
// without persistence each primitive refuses new grants (a try fails, a waiter waits it out,
// with a `quarantined` event), then grants again with fences above those from before the loss.

let stack: Stack;
const extra: RedisProcess[] = [];
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await closeAll();
  await Promise.all(extra.map((r) => r.stop()));
  await stack.close();
});

async function client(
  url: string,
  options: object = {},
): Promise<TestClient & { redis: NodeRedisClient }> {
  const redis = await makeNodeRedis(url);
  return { ...makeTestClient(redis, { ...QUARANTINED, prefix: keyPrefix(), ...options }), redis };
}

/** One try and one waiting acquire of each primitive; returns fences (0 where there is none). */
function primitives(c: EdgelockClient) {
  const sem = c.semaphore("sem");
  const pes = c.permitExpirableSemaphore("pes");
  const rw = c.readWriteLock("rw-w");
  const reader = c.readWriteLock("rw-r");
  return {
    lock: {
      try: () => c.lock("lock").tryAcquire({ leaseMs: LEASE_MS }),
      wait: () => c.lock("lock").acquire({ waitMs: 10_000, leaseMs: LEASE_MS }),
    },
    fair: {
      try: () => c.fairLock("fair").tryAcquire({ leaseMs: LEASE_MS }),
      wait: () => c.fairLock("fair").acquire({ waitMs: 10_000, leaseMs: LEASE_MS }),
    },
    write: {
      try: () => rw.write.tryAcquire({ leaseMs: LEASE_MS }),
      wait: () => rw.write.acquire({ waitMs: 10_000, leaseMs: LEASE_MS }),
    },
    read: {
      try: () => reader.read.tryAcquire({ leaseMs: LEASE_MS }),
      wait: () => reader.read.acquire({ waitMs: 10_000, leaseMs: LEASE_MS }),
    },
    multi: {
      try: () => c.multiLock(["a{g}", "b{g}"]).tryAcquire({ leaseMs: LEASE_MS }),
      wait: () => c.multiLock(["a{g}", "b{g}"]).acquire({ waitMs: 10_000, leaseMs: LEASE_MS }),
    },
    semaphore: {
      try: async () => (await sem.trySetPermits(1), sem.tryAcquire()),
      wait: () => sem.acquire({ waitMs: 10_000 }),
    },
    permit: {
      try: async () => (await pes.trySetPermits(1), pes.tryAcquire({ leaseMs: LEASE_MS })),
      wait: () => pes.acquire({ waitMs: 10_000, leaseMs: LEASE_MS }),
    },
  };
}

function fenceOf(held: unknown): number {
  if (held === null || typeof held !== "object") return 0;
  const h = held as { fence?: number; fences?: Record<string, number> };
  return h.fence ?? Math.min(...Object.values(h.fences ?? { none: 0 }));
}

describe.sequential("restart quarantine, every primitive", () => {
  it("each primitive refuses new grants after a restart without persistence, then grants with larger fences", async () => {
    const { client: c, events } = await client(stack.redis.url);
    await c.initialize();
    const all = primitives(c);
    const before = new Map<string, number>();
    for (const [kind, p] of Object.entries(all)) {
      const held = await p.try();
      expect(held, `${kind} before the restart`).not.toBeNull();
      before.set(kind, fenceOf(held));
    }
    expect(eventsOf(events, "quarantined")).toEqual([]);

    await stack.redis.restart({ flush: true });
    for (const [kind, p] of Object.entries(all))
      expect(await p.try(), `${kind} during the quarantine`).toBeNull();
    const refused = new Set(eventsOf(events, "quarantined").map((e) => e.name));
    expect(refused.size).toBe(Object.keys(all).length);

    const after = await Promise.all(
      Object.entries(all).map(async ([kind, p]) => [kind, fenceOf(await p.wait())] as const),
    );
    for (const [kind, fence] of after)
      if (before.get(kind)! > 0) expect(fence, kind).toBeGreaterThan(before.get(kind)!);
  });

  it("a quorum lock: databases that lost their data refuse until their quarantine ends; the fence still increases", async () => {
    extra.push(await startRedis(), await startRedis());
    const dbs = [stack.redis, ...extra];
    const clients = await Promise.all(dbs.map((r) => client(r.url, { prefix: "quorum" })));
    await Promise.all(clients.map((t) => t.client.initialize()));
    const lock = quorumLock(
      clients.map((t) => t.client),
      "q",
    );
    const stale = await lock.acquire({ leaseMs: LEASE_MS });

    // A majority restarted empty: without the quarantine they would grant a second holder at once.
    await Promise.all([dbs[0]!.restart({ flush: true }), dbs[1]!.restart({ flush: true })]);
    await Promise.all(clients.map((t) => t.redis.ping())); // reconnected: answers now come from the empty databases
    expect(await lock.tryAcquire({ leaseMs: LEASE_MS })).toBeNull();
    expect(eventsOf(clients[0]!.events, "quarantined").length).toBeGreaterThan(0);
    const next = await lock.acquire({ waitMs: 10_000, leaseMs: LEASE_MS });
    expect(stale.signal.aborted).toBe(true);
    expect(next.fence).toBeGreaterThan(stale.fence);
    // No renewal may outlast the quarantine on any of its databases.
    await expect(next.extend(QUARANTINE_MS + 1)).rejects.toThrow(/quarantineMs/);
    await next.release();
  });

  it('scope "slot" (Redis Cluster): one sentinel per slot; names sharing a slot share its quarantine', async () => {
    const { client: c } = await client(stack.redis.url, { quarantineScope: "slot" });
    expect(await c.lock("{t}a").tryAcquire()).toBeNull(); // this slot's first use
    const a = await c.lock("{t}a").acquire({ waitMs: 10_000 });
    const b = await c.lock("{t}b").tryAcquire(); // same tag, same slot: already cleared
    expect(b).not.toBeNull();
    expect(await c.lock("elsewhere").tryAcquire()).toBeNull(); // another slot: its own first use
    await Promise.all([a.release(), b!.release()]);
  });

  it('scope "slot": initialize() writes one sentinel per slot, after which no first use is quarantined', async () => {
    const { client: c } = await client(stack.redis.url, { quarantineScope: "slot" });
    expect(await c.initialize()).toMatchObject({ written: 16_384, existing: 0 });
    const held = await Promise.all(["p", "q"].map((n) => c.lock(n).tryAcquire()));
    expect(held.every((h) => h !== null)).toBe(true);
    await Promise.all(held.map((h) => h!.release()));
  });
});
