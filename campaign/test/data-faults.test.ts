import {
  closeAll,
  makeNodeRedis,
  startRedis,
  type NodeRedisClient,
  type RedisProcess,
} from "@edgelock/testkit";
import { afterAll, describe, expect, it } from "vitest";
import {
  applyMemoryPressure,
  relieveMemoryPressure,
} from "../src/adversary/world/eviction-pressure.ts";
import { serverClock } from "../src/adversary/world/server-clock/server-clock.ts";
import { snapshotRollback } from "../src/adversary/world/snapshot-rollback.ts";

// The adversarial world's data faults, each against a real redis-server: a server clock step, a
// rollback to an older snapshot, and eviction under memory pressure.

const started: RedisProcess[] = [];
async function redis(options: Parameters<typeof startRedis>[0] = {}) {
  const r = await startRedis(options);
  started.push(r);
  return { redis: r, admin: await makeNodeRedis(r.url) };
}
afterAll(async () => {
  await closeAll();
  await Promise.all(started.map((r) => r.stop()));
});

async function serverMs(admin: NodeRedisClient): Promise<number> {
  const [s, us] = await admin.sendCommand<[string, string]>(["TIME"]);
  return Number(s) * 1000 + Math.floor(Number(us) / 1000);
}

describe("server clock steps", () => {
  it("steps the server's TIME, in scripts too, forwards and back; expiries follow; a restart keeps the step", async () => {
    const clock = await serverClock();
    const { redis: server, admin } = await redis({ env: clock.env });
    try {
      expect(Math.abs((await serverMs(admin)) - Date.now())).toBeLessThan(2_000);

      clock.stepServerClock(3_600_000);
      expect(clock.offsetMs).toBe(3_600_000);
      expect((await serverMs(admin)) - Date.now()).toBeGreaterThan(3_598_000);
      const inScript = await admin.sendCommand<[string, string]>([
        "EVAL",
        "return redis.call('TIME')",
        "0",
      ]);
      expect(Number(inScript[0]) * 1000 - Date.now()).toBeGreaterThan(3_598_000);

      // A lease of 5 s is gone once the clock jumps 10 s ahead, without 5 s passing.
      await admin.sendCommand(["SET", "lease", "held", "PX", "5000"]);
      clock.stepServerClock(10_000);
      expect(await admin.get("lease")).toBeNull();

      clock.stepServerClock(-3_620_000); // 10 s behind the real time
      expect(clock.offsetMs).toBe(-10_000);
      const behind = (await serverMs(admin)) - Date.now();
      expect(behind).toBeLessThan(-8_000);
      expect(behind).toBeGreaterThan(-12_000);

      await server.kill();
      await server.restart();
      const again = await makeNodeRedis(server.url);
      expect((await serverMs(again)) - Date.now()).toBeLessThan(-8_000);
      clock.resetServerClock();
      expect(Math.abs((await serverMs(again)) - Date.now())).toBeLessThan(2_000);
    } finally {
      await server.stop();
      clock.close();
    }
  });

  it("refuses a step that is not a whole number of ms", async () => {
    const clock = await serverClock();
    try {
      expect(() => clock.stepServerClock(1.5)).toThrow(RangeError);
      expect(clock.offsetMs).toBe(0);
    } finally {
      clock.close();
    }
  });
});

describe("snapshot rollback", () => {
  it("restarts from the last snapshot: older writes survive, newer ones are gone", async () => {
    const { redis: server } = await redis();
    const rollback = snapshotRollback(server);
    await expect(rollback.rollbackToSnapshot()).rejects.toThrow(/before any takeSnapshot/);
    const admin = await makeNodeRedis(server.url);
    await admin.set("kept", "1");
    await rollback.takeSnapshot();
    await admin.set("lost", "1");
    await rollback.rollbackToSnapshot();
    const after = await makeNodeRedis(server.url);
    expect(await after.get("kept")).toBe("1");
    expect(await after.get("lost")).toBeNull();
    expect([rollback.snapshots, rollback.rollbacks]).toEqual([1, 1]);
  });

  it("refuses a server with an append-only file (it would restart from the AOF, losing nothing)", async () => {
    const { redis: server } = await redis({ persistence: true });
    expect(() => snapshotRollback(server)).toThrow(/append-only/);
  });
});

describe("eviction under memory pressure", () => {
  it("volatile-ttl evicts a lease key (the shortest TTL) and never a key without a TTL; relief restores noeviction", async () => {
    const { admin } = await redis();
    await admin.sendCommand(["SET", "lease", "held", "PX", "30000"]);
    await admin.set("no-ttl", "kept"); // volatile-* never evicts a key without a TTL
    const pressure = await applyMemoryPressure(admin, { until: ["lease"] });
    expect(pressure.targetsEvicted).toBe(true);
    expect(pressure.evictedKeys).toBeGreaterThan(0);
    expect(pressure.fillerKeys).toBeGreaterThan(0);
    expect(await admin.get("no-ttl")).toBe("kept");

    await relieveMemoryPressure(admin);
    expect(await admin.sendCommand(["CONFIG", "GET", "maxmemory-policy"])).toEqual([
      "maxmemory-policy",
      "noeviction",
    ]);
    expect(await admin.sendCommand(["CONFIG", "GET", "maxmemory"])).toEqual(["maxmemory", "0"]);
    expect(await admin.dbSize()).toBe(1);
  });
});
