import {
  closeAll,
  makeNodeRedisCluster,
  startCluster,
  type RedisClusterProcess,
} from "@edgelock/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, resolveBackend } from "../../src/index.ts";
import { lockKeys } from "../../src/keys.ts";
import { runSuites } from "../conformance/suites.ts";
import { declareSlotAudit, SlotErrorTally } from "./cluster-support.ts";

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

// Every row of the suite table (conformance/suites.ts): its skips name why a suite does not run here.
await runSuites("cluster-tcp", "conformance", {
  ...target,
  makeBackend: async () => resolveBackend(await connect()),
});
await runSuites("cluster-tcp", "regressions", target);
await runSuites("cluster-tcp", "quorum", target);

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

declareSlotAudit("Redis Cluster, TCP", tally, () => cluster, connect);
