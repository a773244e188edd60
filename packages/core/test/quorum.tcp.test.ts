import {
  closeAll,
  IntervalRecorder,
  keyPrefix,
  startRedis,
  type NodeRedisClient,
  type RedisProcess,
} from "@edgelock/testkit";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  AcquireTimeoutError,
  InvalidArgumentError,
  LeaseLostError,
  NotHeldError,
  QuorumError,
  quorumLock,
  resolveBackend,
  type QuorumLockOptions,
} from "../src/index.ts";
import { quorumKeys } from "../src/keys.ts";
import { heldOn, rawClients, reviveAll, slowBackend } from "./quorum-support.ts";
import { aborted, delay, makeTestClient, type TestClient } from "./support.ts";

// Five independent redis-server processes, each reached over TCP by its own node-redis client.
let nodes: RedisProcess[] = [];
let raws: NodeRedisClient[] = [];

beforeAll(async () => {
  nodes = await Promise.all(Array.from({ length: 5 }, () => startRedis()));
  raws = await rawClients(nodes);
});
/** Restarts the databases that are down and waits until every client has reconnected. */
async function revive(): Promise<void> {
  await reviveAll(nodes);
  await Promise.all(raws.map((r) => r.ping()));
}
afterEach(revive);
afterAll(async () => {
  await closeAll();
  await Promise.all(nodes.map((n) => n.stop()));
});

const BIG = 9_000_000_000_000_000; // a stored fence far ahead of every clock (µs), still exact in a double

function setup(
  options: QuorumLockOptions = { requestTimeoutMs: 300 },
  wrap: (i: number) => number = () => 0,
  leaseMs = 900,
) {
  const prefix = keyPrefix();
  const dbs: TestClient[] = raws.map((raw, i) => {
    const backend = resolveBackend(raw);
    return makeTestClient(wrap(i) > 0 ? slowBackend(backend, wrap(i)) : backend, {
      prefix,
      leaseMs,
    });
  });
  const lock = (name = "q") =>
    quorumLock(
      dbs.map((d) => d.client),
      name,
      options,
    );
  const requests = () => dbs.reduce((sum, d) => sum + d.requests.total, 0);
  return { prefix, dbs, lock, requests, held: (name = "q") => heldOn(nodes, raws, prefix, name) };
}

const kill = (...which: number[]) => Promise.all(which.map((i) => nodes[i]!.kill()));

describe("quorum lock over 5 redis-server processes (TCP)", () => {
  it("all up: granted on every database; acquire costs 2 requests per database, release 1", async () => {
    const { lock, requests, held, prefix } = setup();
    const q = lock();
    expect([q.databases, q.majority]).toEqual([5, 3]);
    await (await q.acquire({ leaseMs: 5_000 })).release(); // warm the script caches
    const before = requests();
    const h = await q.acquire({ leaseMs: 5_000 });
    expect(requests() - before).toBe(10);
    expect(await held()).toEqual([true, true, true, true, true]);
    const stored = await Promise.all(raws.map((r) => r.hGet(quorumKeys(prefix, "q").lock, "f")));
    expect(stored).toEqual(Array(5).fill(String(h.fence)));
    expect(h.remainingMs).toBeGreaterThan(0);
    const mid = requests();
    await h.release();
    expect(requests() - mid).toBe(5);
    expect(await held()).toEqual([false, false, false, false, false]);
  });

  it("two databases down: the other three grant it, and release frees them", async () => {
    const { lock, held } = setup();
    await kill(3, 4);
    const h = await lock().acquire({ leaseMs: 5_000 });
    expect(await held()).toEqual([true, true, true, null, null]);
    await h.release();
    expect(await held()).toEqual([false, false, false, null, null]);
  });

  it("three databases down: fails safe with QuorumError, nothing left held on the survivors", async () => {
    const { lock, held } = setup();
    await kill(2, 3, 4);
    const error = await lock()
      .acquire({ leaseMs: 5_000, waitMs: 300 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuorumError);
    const q = error as QuorumError;
    expect([q.code, q.reason, q.operation, q.needed]).toEqual([
      "QUORUM",
      "unreachable",
      "acquire",
      3,
    ]);
    expect(q.answers.map((a) => a.status)).toEqual([
      "granted",
      "granted",
      "error",
      "error",
      "error",
    ]);
    expect(q.answers[2]!.error).toBeInstanceOf(Error);
    expect(await held()).toEqual([false, false, null, null, null]);
    await expect(lock().tryAcquire({ leaseMs: 5_000 })).rejects.toBeInstanceOf(QuorumError);
    expect(await held()).toEqual([false, false, null, null, null]);
  });

  it("tokens increase across grants whose majorities differ, even with a counter ahead of every clock", async () => {
    const { lock, prefix } = setup();
    // One database remembers a fence far in the future: only the commit phase carries it to the others.
    await raws[0]!.set(quorumKeys(prefix, "q").fence, String(BIG));
    const fences: number[] = [];
    const grant = async (down: number[]) => {
      await kill(...down);
      const h = await lock().acquire({ leaseMs: 5_000 });
      fences.push(h.fence);
      await h.release();
      await revive();
    };
    await grant([]); // read 0's counter, committed everywhere
    await grant([0, 1]); // {2,3,4}
    await grant([3, 4]); // {0,1,2}
    await grant([0, 2]); // {1,3,4}
    await grant([1, 4]); // {0,2,3}
    expect(fences[0]).toBeGreaterThan(BIG);
    for (let i = 1; i < fences.length; i++) expect(fences[i]).toBeGreaterThan(fences[i - 1]!);
  });

  it("a database restarted empty: tokens still increase (by the intersection, or else by server time)", async () => {
    const { lock } = setup();
    await kill(3, 4);
    const a = await lock().acquire({ leaseMs: 5_000 }); // written on {0,1,2}
    await a.release();
    await revive();
    await nodes[2]!.restart({ flush: true }); // the only database B's majority shares with A's
    await revive();
    await kill(0, 1);
    const b = await lock().acquire({ leaseMs: 5_000 }); // {2,3,4}
    expect(b.fence).toBeGreaterThan(a.fence);
    await b.release();
    await revive();
    await nodes[4]!.restart({ flush: true });
    await revive();
    const c = await lock().acquire({ leaseMs: 5_000 });
    expect(c.fence).toBeGreaterThan(b.fence);
    await c.release();
  });

  it("a grant with no validity left is refused and released everywhere", async () => {
    // Three databases answer 200 ms late (a paused process): two rounds take longer than the lease.
    const { lock, held } = setup({ requestTimeoutMs: 250 }, (i) => (i < 3 ? 200 : 0));
    const error = await lock()
      .acquire({ leaseMs: 300 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuorumError);
    expect((error as QuorumError).reason).toBe("validity");
    expect((error as QuorumError).answers.filter((a) => a.status === "committed")).toHaveLength(5);
    expect(await held()).toEqual([false, false, false, false, false]);
  });

  it("keep-alive needs a majority: survives two databases down, ends when a third goes", async () => {
    const { lock, held } = setup({ requestTimeoutMs: 200 }, () => 0, 1_500);
    const kept = await lock("kept").acquire(); // the client's default lease (1.5 s), renewed every 500 ms
    await kill(3, 4);
    await delay(1_800);
    expect(kept.signal.aborted).toBe(false);
    expect(await held("kept")).toEqual([true, true, true, null, null]);
    await expect(kept.extend(1_500)).resolves.toBeUndefined();
    await kill(2);
    await expect(kept.extend(1_500)).rejects.toBeInstanceOf(QuorumError);
    const reason = (await aborted(kept.signal, 6_000)) as LeaseLostError;
    expect(reason.reason).toBe("deadline");
  });

  it("a majority that no longer holds it: extend says NotHeldError and the signal aborts (gone)", async () => {
    const { lock, prefix } = setup();
    const h = await lock().acquire({ leaseMs: 5_000 });
    await Promise.all([0, 1, 2].map((i) => raws[i]!.del(quorumKeys(prefix, "q").lock)));
    await expect(h.extend(5_000)).rejects.toBeInstanceOf(NotHeldError);
    expect(((await aborted(h.signal, 1_000)) as LeaseLostError).reason).toBe("gone");
    await expect(h.release()).rejects.toBeInstanceOf(NotHeldError);
  });

  it("contenders exclude each other; fences increase in grant order", async () => {
    const { lock } = setup();
    const first = await lock().acquire({ leaseMs: 5_000 });
    expect(await lock().tryAcquire({ leaseMs: 5_000 })).toBeNull();
    await expect(lock().acquire({ leaseMs: 5_000, waitMs: 200 })).rejects.toBeInstanceOf(
      AcquireTimeoutError,
    );
    await first.release();
    const recorder = new IntervalRecorder();
    await Promise.all(
      Array.from({ length: 4 }, (_, w) =>
        (async () => {
          for (let round = 0; round < 3; round++) {
            await lock().withLock(
              async (h) => {
                const section = recorder.enter(`w${w}`, h.fence);
                await delay(5);
                section.exit();
              },
              { leaseMs: 3_000, waitMs: 20_000 },
            );
          }
        })(),
      ),
    );
    expect(recorder.overlaps()).toEqual([]);
    expect(recorder.fencesIncreasingInGrantOrder()).toBe(true);
  });

  it("toJSON/resume hands the lease to other clients of the same databases", async () => {
    const { lock, dbs, held } = setup();
    const h = await lock().acquire({ leaseMs: 5_000 });
    const lease = JSON.parse(JSON.stringify(h)) as ReturnType<typeof h.toJSON>;
    const others = dbs.map(
      (d, i) => makeTestClient(raws[i]!, { prefix: d.client.context.prefix }).client,
    );
    const resumed = quorumLock(others, "q", { requestTimeoutMs: 300 }).resume(lease);
    expect(resumed.fence).toBe(h.fence);
    await resumed.extend(8_000);
    await resumed.release();
    expect(await held()).toEqual([false, false, false, false, false]);
    expect(() => quorumLock(others.slice(0, 3), "q").resume(lease)).toThrow(/lease\.prefixes/);
  });

  it("validates arguments before any request", async () => {
    const { dbs, requests } = setup();
    const clients = dbs.map((d) => d.client);
    expect(() => quorumLock([], "q")).toThrow(InvalidArgumentError);
    expect(() => quorumLock([clients[0]!, clients[0]!], "q")).toThrow(/clients\[1\]/);
    expect(() => quorumLock([{} as never], "q")).toThrow(/clients\[0\]/);
    expect(() => quorumLock(clients, "")).toThrow(/name/);
    expect(() => quorumLock(clients, "q", { driftFactor: 2 })).toThrow(/driftFactor/);
    expect(() => quorumLock(clients, "q", { requestTimeoutMs: 0 })).toThrow(/requestTimeoutMs/);
    const q = quorumLock(clients, "q", { requestTimeoutMs: 500 });
    await expect(q.acquire({ leaseMs: 400 })).rejects.toThrow(/options\.leaseMs/);
    await expect(q.acquire({ waitMs: -1 })).rejects.toThrow(/options\.waitMs/);
    await expect(q.withLock("fn" as never)).rejects.toThrow(/fn/);
    expect(requests()).toBe(0);
  });
});
