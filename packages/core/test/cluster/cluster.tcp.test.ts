import {
  closeAll,
  makeNodeRedisCluster,
  startCluster,
  type RedisClusterProcess,
} from "@edgelock/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, resolveBackend } from "../../src/index.ts";
import { lockKeys } from "../../src/keys.ts";
import { runBackendConformance } from "../conformance/backend.conformance.ts";
import { runFairLockConformance } from "../conformance/fair-lock.conformance.ts";
import { runInspectConformance } from "../conformance/inspect.conformance.ts";
import { runLatchConformance } from "../conformance/latch.conformance.ts";
import { runLockConformance } from "../conformance/lock.conformance.ts";
import { runMultiLockConformance } from "../conformance/multi-lock.conformance.ts";
import { runPermitSemaphoreConformance } from "../conformance/permit-semaphore.conformance.ts";
import { runReadWriteLockConformance } from "../conformance/read-write-lock.conformance.ts";
import { runSemaphoreConformance } from "../conformance/semaphore.conformance.ts";
import { declareClusterSkips, declareSlotAudit, SlotErrorTally } from "./cluster-support.ts";
import { runTaggedNamesSuite } from "./tagged-names.ts";

// Every conformance suite on a real 3-master Redis Cluster, through node-redis' cluster client
// (which follows MOVED and ASK). One cluster for the whole file.

let cluster: RedisClusterProcess;
const tally = new SlotErrorTally();

beforeAll(async () => {
  cluster = await startCluster({ masters: 3 });
});
afterAll(async () => {
  await closeAll();
  await cluster?.close();
});

const connect = () => makeNodeRedisCluster(cluster.urls);
const target = {
  name: "Redis Cluster, TCP (node-redis createCluster)",
  makeRedis: async () => tally.wrap(await connect()),
};

runBackendConformance({
  name: target.name,
  makeBackend: async () => resolveBackend(await connect()),
});
runLockConformance(target);
runFairLockConformance(target);
runReadWriteLockConformance(target);
runMultiLockConformance(target);
runSemaphoreConformance(target);
runPermitSemaphoreConformance(target);
runLatchConformance(target);
runInspectConformance(target);
runTaggedNamesSuite(target);

describe("Redis Cluster, TCP: one server-time estimate per node", () => {
  it("a client that has used every master keeps one estimate per master, each known", async () => {
    const backend = await target.makeRedis();
    const client = createClient({ redis: backend, prefix: "clocks" });
    const { clocks } = client.context;
    const nodes = new Set<string>();
    for (let i = 0; nodes.size < 3 && i < 200; i++) {
      const lock = client.lock(`n${i}`);
      await (await lock.acquire({ leaseMs: 5_000 })).release();
      nodes.add(backend.nodeOf!(lockKeys("clocks", `n${i}`).lock)!);
    }
    expect(nodes.size).toBe(3);
    expect(clocks.nodes).toBe(3);
    for (const node of nodes) expect(clocks.of(node).known).toBe(true);
    expect(clocks.of(undefined).known).toBe(false);
  });
});
declareClusterSkips();

declareSlotAudit("Redis Cluster, TCP", tally, () => cluster, connect);
