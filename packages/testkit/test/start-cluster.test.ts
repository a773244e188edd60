import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import {
  closeAll,
  makeNodeRedis,
  makeNodeRedisCluster,
  migrateSlot,
  ownerOf,
  startCluster,
  type RedisClusterProcess,
} from "../src/index.ts";

let cluster: RedisClusterProcess | undefined;
afterAll(async () => {
  await closeAll();
  await cluster?.close();
});

describe("startCluster", () => {
  it("joins 3 masters that own every slot; a slot migrates with its keys; close() removes everything", async () => {
    cluster = await startCluster({ masters: 3 });
    expect(cluster.nodes).toHaveLength(3);
    expect(new Set(cluster.urls).size).toBe(3);
    const admin = await makeNodeRedis(cluster.urls[0]!);
    const info = String(await admin.sendCommand(["CLUSTER", "INFO"]));
    expect(info).toMatch(/cluster_state:ok/);
    expect(info).toMatch(/cluster_slots_assigned:16384/);

    const client = await makeNodeRedisCluster(cluster.urls);
    await client.set("{k}a", "1");
    await client.set("{k}b", "2");
    const slot = Number(await admin.sendCommand(["CLUSTER", "KEYSLOT", "{k}a"]));
    const from = await ownerOf(admin, cluster, slot);
    const moved = await migrateSlot(cluster, slot, (from + 1) % 3);
    expect(moved).toMatchObject({ slot, from, to: (from + 1) % 3, keysMoved: 2 });
    expect(await ownerOf(admin, cluster, slot)).toBe((from + 1) % 3);
    expect(await client.get("{k}a")).toBe("1"); // the cluster client follows MOVED

    const dirs = cluster.nodes.map((node) => node.dir);
    await cluster.close();
    expect(cluster.nodes.every((node) => !node.running)).toBe(true);
    expect(dirs.some(existsSync)).toBe(false);
  });

  it("refuses fewer than 3 masters", async () => {
    await expect(startCluster({ masters: 2 })).rejects.toThrow(/at least 3/);
  });
});
