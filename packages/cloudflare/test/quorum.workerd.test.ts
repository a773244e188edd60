import { describe, expect, it } from "vitest";
import { QuorumError } from "../../core/src/index.ts";
import { quorumDatabases } from "./workerd/quorum-databases.ts";

const BIG = 9_000_000_000_000_000; // a stored fence far ahead of every clock (µs), still exact in a double
const requests = (dbs: { requests: { total: number } }[]) =>
  dbs.reduce((sum, d) => sum + d.requests.total, 0);

// The quorum lock inside workerd, reduced: its client-side logic (parallel fetches, per-request
// timeouts, validity on the monotonic clock, commit of the fence) over 3 databases.
describe("quorum lock in workerd: 3 databases (one prefix each on the rest-server)", () => {
  it.skip(
    "not run in workerd: 5 independent redis-server processes stopped and restarted empty (the harness gives workerd one rest-server and no process control; quorum.rest.test.ts and quorum.tcp.test.ts cover it)",
  );

  it("all up: granted on every database in 2 requests each, released in 1", async () => {
    const q = quorumDatabases(3);
    const { lock, dbs } = q.lock("q");
    expect([lock.databases, lock.majority]).toEqual([3, 2]);
    await (await lock.acquire()).release(); // loads the scripts on the server if needed
    const before = requests(dbs);
    const held = await lock.acquire();
    expect(requests(dbs) - before).toBe(6);
    expect(await q.held("q")).toEqual([true, true, true]);
    const mid = requests(dbs);
    await held.release();
    expect(requests(dbs) - mid).toBe(3);
    expect(await q.held("q")).toEqual([false, false, false]);
  });

  it("one database down: still granted; two down: QuorumError with each answer, nothing left held", async () => {
    const q = quorumDatabases(3);
    const held = await q.lock("q", [2]).lock.acquire();
    expect(await q.held("q")).toEqual([true, true, false]);
    await held.release();
    const error = await q
      .lock("q", [1, 2])
      .lock.acquire()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuorumError);
    expect((error as QuorumError).answers.map((a) => a.status)).toEqual([
      "granted",
      "error",
      "error",
    ]);
    expect(await q.held("q")).toEqual([false, false, false]);
  });

  it("fences increase across grants whose majorities differ, even past a counter ahead of every clock", async () => {
    const q = quorumDatabases(3);
    await q.setFence(0, "q", BIG); // only the commit carries it to the others
    const fences: number[] = [];
    for (const down of [[], [0], [1], [2], [0]]) {
      const held = await q.lock("q", down).lock.acquire();
      fences.push(held.fence);
      await held.release();
    }
    expect(fences[0]).toBeGreaterThan(BIG);
    for (let i = 1; i < fences.length; i++) expect(fences[i]).toBeGreaterThan(fences[i - 1]!);
  });

  it("contenders exclude each other; toJSON/resume hands the lease to other clients", async () => {
    const q = quorumDatabases(3);
    const held = await q.lock("q").lock.acquire();
    expect(await q.lock("q").lock.tryAcquire()).toBeNull();
    const lease = JSON.parse(JSON.stringify(held)) as ReturnType<typeof held.toJSON>;
    const resumed = q.lock("q", [1]).lock.resume(lease);
    expect(resumed.fence).toBe(held.fence);
    await resumed.extend(8_000);
    await resumed.release();
    expect(await q.held("q")).toEqual([false, true, false]); // the one that was down keeps it until its lease ends
  });
});
