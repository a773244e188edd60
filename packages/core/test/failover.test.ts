import {
  closeAll,
  keyPrefix,
  makeNodeRedis,
  startRedis,
  type NodeRedisClient,
  type RedisProcess,
} from "@edgelock/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Backend } from "../src/backend/backend.ts";
import { resolveBackend } from "../src/backend/resolve.ts";
import { lockKeys } from "../src/keys.ts";
import type { LeaseLostError } from "../src/index.ts";
import { justInTimeStrategy } from "../src/index.ts";
import { delay, eventsOf, makeTestClient } from "./support.ts";

// Replication (docs/guarantees.md, "Replication and failover"): scripts are replicated by their
// effects, so a replica holds what the primary's scripts wrote (server time included); a failover
// to a replica that missed the newest writes is a partial data loss, which the restart
// quarantine's grant epoch lets a client that remembers detect, as for a snapshot rollback.

let primary: RedisProcess;
let replica: RedisProcess;
let primaryAdmin: NodeRedisClient;
let replicaAdmin: NodeRedisClient;
beforeAll(async () => {
  primary = await startRedis();
  replica = await startRedis({ args: ["--replicaof", "127.0.0.1", String(primary.port)] });
  [primaryAdmin, replicaAdmin] = await Promise.all([
    makeNodeRedis(primary.url),
    makeNodeRedis(replica.url),
  ]);
  for (let i = 0; i < 500; i++) {
    const info = String(await replicaAdmin.sendCommand(["INFO", "replication"]));
    if (/master_link_status:up/.test(info)) return;
    await delay(20);
  }
  throw new Error("the replica did not connect to its primary");
});
afterAll(async () => {
  await closeAll();
  await Promise.all([primary.stop(), replica.stop()]);
});

/** The client's view of "the database": the primary until a failover promotes the replica. */
function failoverBackend(first: Backend, second: Backend) {
  let current = first;
  const backend: Backend = {
    kind: "tcp",
    command: (args, signal) => current.command(args, signal),
  };
  return { backend, failover: () => (current = second) };
}

/** Waits until the replica acknowledged every write the primary made so far. */
async function replicated(): Promise<void> {
  expect(Number(await primaryAdmin.sendCommand(["WAIT", "1", "5000"]))).toBe(1);
}

describe.sequential("replication and failover", () => {
  it("a grant's effects reach the replica as written at the primary (scripts replicated by effects)", async () => {
    const prefix = keyPrefix();
    const { client } = makeTestClient(await makeNodeRedis(primary.url), { prefix });
    const held = await client.lock("r").acquire({ leaseMs: 10_000 });
    await replicated();
    const key = lockKeys(prefix, "r").lock;
    const atPrimary = await primaryAdmin.hGetAll(key);
    expect(atPrimary["f"]).toBe(String(held.fence));
    expect(await replicaAdmin.hGetAll(key)).toEqual(atPrimary);
    await held.release();
  });

  it("a failover to a replica that missed the newest grants is detected by a client that saw them (rolled-back)", async () => {
    const options = {
      quarantineMs: 8_000,
      leaseMs: 1_000,
      claimWindowMs: 1_000,
      requestTimeoutMs: 2_000,
      wait: justInTimeStrategy({ maxMs: 500 }),
      prefix: keyPrefix(),
    } as const;
    const { backend, failover } = failoverBackend(
      resolveBackend(await makeNodeRedis(primary.url)),
      resolveBackend(await makeNodeRedis(replica.url)),
    );
    const { client, events } = makeTestClient(backend, options);
    await client.initialize();
    const kept = await client.lock("kept").acquire({ leaseMs: 6_000 });
    await replicated();
    // The replica falls behind (its link is cut) and is promoted: what the primary grants after
    // that is lost to the promoted replica.
    expect(await replicaAdmin.sendCommand(["REPLICAOF", "NO", "ONE"])).toBe("OK");
    const missed = await client.lock("missed").acquire({ leaseMs: 6_000 });
    failover();

    expect(await client.lock("missed").tryAcquire({ leaseMs: 6_000 })).toBeNull();
    expect(eventsOf(events, "rolled-back")).toHaveLength(1);
    const reasons = [missed, kept].map((h) => (h.signal.reason as LeaseLostError).reason);
    expect(reasons).toEqual(["rolled-back", "rolled-back"]);
    expect(eventsOf(events, "quarantined").length).toBeGreaterThan(0);
  });
});
