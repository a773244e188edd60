import { Redis } from "@upstash/redis";
import { closeAll, keyPrefix, makeNodeRedis, startStack, type Stack } from "@edgelock/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockKeys } from "../src/keys.ts";
import { eventsOf, makeTestClient } from "./support.ts";

// Finding 4 of issue 13: under `maxmemory` with a policy other than `noeviction`, Redis may evict a
// live lock's key. Nothing in a script can stop that, so `client.initialize()` reads the policy and
// reports it (result and event), and the failure itself is documented, not claimed prevented.

let evicting: Stack;
let plain: Stack;
let refusing: Stack;
beforeAll(async () => {
  [evicting, plain, refusing] = await Promise.all([
    startStack({ args: ["--maxmemory-policy", "volatile-ttl"] }),
    startStack(),
    // A server that refuses CONFIG, as a managed service may (real Redis, the command renamed away).
    startStack({ args: ["--rename-command", "CONFIG", ""] }),
  ]);
});
afterAll(async () => {
  await closeAll();
  await Promise.all([evicting, plain, refusing].map((s) => s.close()));
});

const backends = {
  rest: (s: Stack) => Promise.resolve(new Redis({ url: s.rest.url, token: s.rest.token })),
  tcp: (s: Stack) => makeNodeRedis(s.redis.url),
};

describe("eviction policy", () => {
  for (const [backend, makeRedis] of Object.entries(backends)) {
    it(`${backend}: initialize() reports volatile-ttl in its result and once through an event`, async () => {
      const { client, events } = makeTestClient(await makeRedis(evicting), { prefix: keyPrefix() });
      const first = await client.initialize();
      expect(first.eviction).toEqual({ policy: "volatile-ttl", maxmemoryBytes: 0 });
      expect((await client.initialize()).eviction.policy).toBe("volatile-ttl");
      expect(eventsOf(events, "eviction-policy")).toEqual([
        { type: "eviction-policy", policy: "volatile-ttl", maxmemoryBytes: 0 },
      ]);
    });

    it(`${backend}: noeviction is reported in the result only`, async () => {
      const { client, events } = makeTestClient(await makeRedis(plain), { prefix: keyPrefix() });
      expect((await client.initialize()).eviction.policy).toBe("noeviction");
      expect(eventsOf(events, "eviction-policy")).toEqual([]);
    });

    it(`${backend}: a server that refuses CONFIG gives "unknown", and initialize() still writes its sentinels`, async () => {
      const { client, events } = makeTestClient(await makeRedis(refusing), {
        prefix: keyPrefix(),
      });
      expect(await client.initialize()).toEqual({
        written: 1,
        existing: 0,
        eviction: { policy: "unknown" },
      });
      expect(eventsOf(events, "eviction-policy")).toEqual([]);
    });
  }

  // Documented in docs/failure-modes.md as NOT prevented: this test shows the failure is real.
  it("under memory pressure, volatile-ttl evicts a live lock's key first: a second holder is granted, the first is not told", async () => {
    const admin = await makeNodeRedis(evicting.redis.url);
    const prefix = keyPrefix();
    const { client } = makeTestClient(await makeNodeRedis(evicting.redis.url), { prefix });
    const holder = await client.lock("evicted").acquire({ leaseMs: 30_000 });
    const used = /used_memory:(\d+)/.exec(String(await admin.sendCommand(["INFO", "memory"])))!;
    await admin.sendCommand(["CONFIG", "SET", "maxmemory", String(Number(used[1]) + 256 * 1024)]);
    try {
      // Filler with longer TTLs: the lock's hash (30 s) has the shortest TTL, so it goes first.
      const lockKey = lockKeys(prefix, "evicted").lock;
      const value = "x".repeat(1024);
      for (let i = 0; i < 4_000 && (await admin.exists(lockKey)) === 1; i++)
        await admin.sendCommand(["SET", `${prefix}:filler:${i}`, value, "PX", "3600000"]);
      expect(await admin.exists(lockKey)).toBe(0);
      const second = await client.lock("evicted").tryAcquire({ leaseMs: 30_000 });
      expect(second).not.toBeNull(); // mutual exclusion broken
      expect(holder.signal.aborted).toBe(false); // and the first holder still believes it holds
    } finally {
      await admin.sendCommand(["CONFIG", "SET", "maxmemory", "0"]);
      await admin.sendCommand(["FLUSHALL"]);
      admin.destroy();
    }
  });
});
