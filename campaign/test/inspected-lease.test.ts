import { createClient, inspect } from "@edgelock/core";
import { closeAll, makeNodeRedis, startRedis, type RedisProcess } from "@edgelock/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inspectedLeaseMs } from "../src/workload/primitives/inspected-lease.ts";

// The lease probe's server reading where no handle call gives one holder's lease: two holders
// with leases far apart, each read as its own (the read side's `remainingMs()` gives the longest
// reader's, which would hide a belief past the shorter one).

let server: RedisProcess;
let client: ReturnType<typeof createClient>;
beforeAll(async () => {
  server = await startRedis();
  client = createClient({ redis: await makeNodeRedis(server.url), prefix: "probe" });
});
afterAll(async () => {
  await closeAll();
  await server.stop();
});

const SHORT = 3_000;
const LONG = 20_000;

/** Within the second the test's requests may take, below the lease it was given. */
function near(ms: number, lease: number): void {
  expect(ms).toBeLessThanOrEqual(lease);
  expect(ms).toBeGreaterThan(lease - 1_000);
}

describe("inspectedLeaseMs", () => {
  it("reads each reader's own lease, not the longest", async () => {
    const inspector = inspect(client);
    const short = await client.readWriteLock("rw").read.acquire({ leaseMs: SHORT });
    const long = await client.readWriteLock("rw").read.acquire({ leaseMs: LONG });
    const own = (owner: string) =>
      inspectedLeaseMs(inspector, "rw", "read-write-lock", owner, "read");
    near(await own(short.toJSON().owner), SHORT);
    near(await own(long.toJSON().owner), LONG);
    near(await client.readWriteLock("rw").read.remainingMs(), LONG);
    await short.release();
    expect(await own(short.toJSON().owner)).toBe(0);
    near(await own(long.toJSON().owner), LONG);
    await long.release();
  });

  it("reads each permit's own lease, and 0 once it is released", async () => {
    const inspector = inspect(client);
    const semaphore = client.permitExpirableSemaphore("pes");
    await semaphore.trySetPermits(2);
    const short = await semaphore.acquire({ leaseMs: SHORT });
    const long = await semaphore.acquire({ leaseMs: LONG });
    const own = (id: string) =>
      inspectedLeaseMs(inspector, "pes", "permit-expirable-semaphore", id, "permit");
    near(await own(short.id), SHORT);
    near(await own(long.id), LONG);
    await short.release();
    expect(await own(short.id)).toBe(0);
    await long.release();
    expect(await own(long.id)).toBe(0);
  });
});
