import { IntervalRecorder, keyPrefix } from "@edgelock/testkit";
import { afterEach, describe, expect, it } from "vitest";
import {
  AcquireTimeoutError,
  InvalidArgumentError,
  LeaseLostError,
  NotHeldError,
  QuorumError,
  quorumLock,
  resolveBackend,
  type QuorumLockOptions,
  type RedisInput,
} from "../../src/index.ts";
import { quorumKeys } from "../../src/keys.ts";
import { slowBackend } from "../quorum-backends.ts";
import { aborted, delay, makeTestClient, type TestClient } from "../support.ts";

/**
 * Independent databases for a quorum lock on one backend: separate redis-servers on Node (over
 * REST or TCP), or one prefix each on the rest-server inside workerd. The suite reads and writes
 * them through this, so every case runs on every backend.
 */
export interface QuorumDatabases {
  readonly name: string;
  /** How many databases the lock spans (odd). */
  readonly count: number;
  /** The per-request timeout the cases use: what this transport answers within under load. */
  readonly requestTimeoutMs: number;
  /** A Redis connection to database `i`, for a client with key prefix `prefix`. */
  connect(i: number): RedisInput | Promise<RedisInput>;
  /** The key prefix database `i` is used with, for a lock whose clients share `prefix`. */
  prefixOf(i: number, prefix: string): string;
  /** Takes databases down: their data stays, every request fails. */
  down(which: readonly number[]): Promise<void>;
  /** Brings every database back, with its data. */
  revive(): Promise<void>;
  /** Whether database `i` has `key`; `null` while it is down. */
  exists(i: number, key: string): Promise<boolean | null>;
  hGet(i: number, key: string, field: string): Promise<string | null>;
  set(i: number, key: string, value: string): Promise<void>;
  del(i: number, key: string): Promise<void>;
  /** Restarts database `i` with no data, or says why this backend cannot. */
  readonly restartEmpty: ((i: number) => Promise<void>) | { readonly skip: string };
}

const BIG = 9_000_000_000_000_000; // a stored fence far ahead of every clock (µs), still exact in a double

/**
 * The QuorumLock on one backend: grants by majority, fails safe without one, fences that
 * increase across majorities, validity, keep-alive, hand-over and validation. The cases are the
 * union of what the REST, TCP and workerd files checked before (issue 15).
 */
export function runQuorumConformance(target: QuorumDatabases): void {
  const n = target.count;
  const majority = Math.floor(n / 2) + 1;
  const all = <T>(value: T) => Array.from({ length: n }, () => value);
  /** The last `k` databases. */
  const last = (k: number) => Array.from({ length: k }, (_, j) => n - k + j);
  /** `value` for the first `k` databases, `null` (down) for the rest. */
  const firstThenDown = (k: number, value: boolean) =>
    Array.from({ length: n }, (_, i) => (i < k ? value : null));

  afterEach(() => target.revive());

  async function setup(
    options: QuorumLockOptions = { requestTimeoutMs: target.requestTimeoutMs },
    slowMs: (i: number) => number = () => 0,
    leaseMs = 900,
  ) {
    const prefix = keyPrefix();
    const dbs: TestClient[] = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const backend = resolveBackend(await target.connect(i));
        return makeTestClient(slowMs(i) > 0 ? slowBackend(backend, slowMs(i)) : backend, {
          prefix: target.prefixOf(i, prefix),
          leaseMs,
        });
      }),
    );
    const lock = (name = "q") =>
      quorumLock(
        dbs.map((d) => d.client),
        name,
        options,
      );
    const requests = () => dbs.reduce((sum, d) => sum + d.requests.total, 0);
    const keysOf = (i: number, name: string) => quorumKeys(target.prefixOf(i, prefix), name);
    const held = (name = "q") =>
      Promise.all(dbs.map((_, i) => target.exists(i, keysOf(i, name).lock)));
    return { prefix, dbs, lock, requests, held, keysOf };
  }

  describe(`QuorumLock conformance: ${target.name} (${n} databases)`, () => {
    it(`all up: granted on every database; acquire costs 2 requests per database, release 1`, async () => {
      const { lock, requests, held, keysOf } = await setup();
      const q = lock();
      expect([q.databases, q.majority]).toEqual([n, majority]);
      await (await q.acquire({ leaseMs: 5_000 })).release(); // warm the script caches
      const before = requests();
      const h = await q.acquire({ leaseMs: 5_000 });
      expect(requests() - before).toBe(2 * n);
      expect(await held()).toEqual(all(true));
      const stored = await Promise.all(
        all(0).map((_, i) => target.hGet(i, keysOf(i, "q").lock, "f")),
      );
      expect(stored).toEqual(all(String(h.fence)));
      expect(h.remainingMs).toBeGreaterThan(0);
      const mid = requests();
      await h.release();
      expect(requests() - mid).toBe(n);
      expect(await held()).toEqual(all(false));
    });

    it("validity = lease − time since the attempt started − drift (lease · driftFactor + 2 ms)", async () => {
      for (const driftFactor of [0.01, 0.2]) {
        const { lock } = await setup({ requestTimeoutMs: target.requestTimeoutMs, driftFactor });
        const startedAt = performance.now();
        const h = await lock().acquire({ leaseMs: 5_000 });
        const elapsed = performance.now() - startedAt;
        const drift = 5_000 * driftFactor + 2;
        expect(h.remainingMs, `driftFactor ${driftFactor}`).toBeLessThanOrEqual(5_000 - drift);
        expect(h.remainingMs, `driftFactor ${driftFactor}`).toBeGreaterThanOrEqual(
          5_000 - drift - elapsed - 50,
        );
        await h.release();
      }
    });

    it("a minority down: the majority grants it, and release frees them", async () => {
      const { lock, held } = await setup();
      await target.down(last(n - majority));
      const h = await lock().acquire({ leaseMs: 5_000 });
      expect(await held()).toEqual(firstThenDown(majority, true));
      await h.release();
      expect(await held()).toEqual(firstThenDown(majority, false));
    });

    it("a majority down: fails safe with QuorumError, nothing left held on the survivors", async () => {
      const { lock, held } = await setup();
      const survivors = majority - 1;
      await target.down(last(n - survivors));
      const error = await lock()
        .acquire({ leaseMs: 5_000, waitMs: 300 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QuorumError);
      const q = error as QuorumError;
      expect([q.code, q.reason, q.operation, q.needed]).toEqual([
        "QUORUM",
        "unreachable",
        "acquire",
        majority,
      ]);
      expect(q.answers.map((a) => a.status)).toEqual(
        Array.from({ length: n }, (_, i) => (i < survivors ? "granted" : "error")),
      );
      expect(q.answers[survivors]!.error).toBeInstanceOf(Error);
      expect(await held()).toEqual(firstThenDown(survivors, false));
      await expect(lock().tryAcquire({ leaseMs: 5_000 })).rejects.toBeInstanceOf(QuorumError);
      expect(await held()).toEqual(firstThenDown(survivors, false));
    });

    it("tokens increase across grants whose majorities differ, even with a counter ahead of every clock", async () => {
      const { lock, keysOf } = await setup();
      // One database remembers a fence far in the future: only the commit phase carries it to the others.
      await target.set(0, keysOf(0, "q").fence, String(BIG));
      const fences: number[] = [];
      const grant = async (down: number[]) => {
        await target.down(down);
        const h = await lock().acquire({ leaseMs: 5_000 });
        fences.push(h.fence);
        await h.release();
        await target.revive();
      };
      // Every minority of the first databases in turn: each majority differs from the last.
      const minority = n - majority;
      await grant([]);
      for (let start = 0; start < n; start += minority)
        await grant(Array.from({ length: minority }, (_, j) => (start + j) % n));
      expect(fences[0]).toBeGreaterThan(BIG);
      for (let i = 1; i < fences.length; i++) expect(fences[i]).toBeGreaterThan(fences[i - 1]!);
    });

    const restartEmpty = target.restartEmpty;
    if (typeof restartEmpty !== "function")
      it.skip(`a database restarted empty: not run on ${target.name}: ${restartEmpty.skip}`);
    else
      it("a database restarted empty: tokens still increase (by the intersection, or else by server time)", async () => {
        const { lock } = await setup();
        const minority = n - majority;
        // A's majority is the first databases; the only one B's majority shares with it restarts empty.
        await target.down(last(minority));
        const a = await lock().acquire({ leaseMs: 5_000 });
        await a.release();
        await target.revive();
        const shared = majority - 1;
        await restartEmpty(shared);
        await target.revive();
        await target.down(Array.from({ length: shared }, (_, i) => i));
        const b = await lock().acquire({ leaseMs: 5_000 });
        expect(b.fence).toBeGreaterThan(a.fence);
        await b.release();
        await target.revive();
        await restartEmpty(n - 1);
        await target.revive();
        const c = await lock().acquire({ leaseMs: 5_000 });
        expect(c.fence).toBeGreaterThan(b.fence);
        await c.release();
      });

    it("a grant with no validity left is refused and released everywhere", async () => {
      // A majority answers late (a paused process): two rounds take longer than the lease.
      const timeoutMs = target.requestTimeoutMs;
      const slowMs = Math.round(timeoutMs * 0.7);
      const { lock, held } = await setup({ requestTimeoutMs: timeoutMs }, (i) =>
        i < majority ? slowMs : 0,
      );
      const error = await lock()
        .acquire({ leaseMs: timeoutMs + 50 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QuorumError);
      expect((error as QuorumError).reason).toBe("validity");
      expect((error as QuorumError).answers.filter((a) => a.status === "committed")).toHaveLength(
        n,
      );
      expect(await held()).toEqual(all(false));
    });

    it("latency pushes the grant past its validity: refused and released everywhere", async () => {
      // Every database answers 500 ms late (a paused process), under the 800 ms timeout: two
      // rounds take longer than the 900 ms lease.
      const { lock, held } = await setup({ requestTimeoutMs: 800 }, () => 500, 5_000);
      const error = await lock()
        .acquire({ leaseMs: 900 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QuorumError);
      expect((error as QuorumError).reason).toBe("validity");
      expect((error as QuorumError).answers.filter((a) => a.status === "committed")).toHaveLength(
        n,
      );
      expect(await held()).toEqual(all(false));
    });

    it("keep-alive needs a majority: survives a minority down, ends when a majority is down", async () => {
      const { lock, held } = await setup(
        { requestTimeoutMs: Math.min(target.requestTimeoutMs, 400) },
        () => 0,
        1_500,
      );
      const kept = await lock("kept").acquire(); // the client's default lease (1.5 s), renewed every 500 ms
      await target.down(last(n - majority));
      await delay(1_800);
      expect(kept.signal.aborted).toBe(false);
      expect(await held("kept")).toEqual(firstThenDown(majority, true));
      await expect(kept.extend(1_500)).resolves.toBeUndefined();
      await target.down([majority - 1]);
      await expect(kept.extend(1_500)).rejects.toBeInstanceOf(QuorumError);
      const reason = (await aborted(kept.signal, 6_000)) as LeaseLostError;
      expect(reason.reason).toBe("deadline");
    });

    it("a majority that no longer holds it: extend says NotHeldError and the signal aborts (gone)", async () => {
      const { lock, keysOf } = await setup();
      const h = await lock().acquire({ leaseMs: 5_000 });
      await Promise.all(
        Array.from({ length: majority }, (_, i) => target.del(i, keysOf(i, "q").lock)),
      );
      await expect(h.extend(5_000)).rejects.toBeInstanceOf(NotHeldError);
      expect(((await aborted(h.signal, 1_000)) as LeaseLostError).reason).toBe("gone");
      await expect(h.release()).rejects.toBeInstanceOf(NotHeldError);
    });

    it("contenders exclude each other; fences increase in grant order", async () => {
      const { lock } = await setup();
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
      const { lock, dbs, held } = await setup();
      const h = await lock().acquire({ leaseMs: 5_000 });
      const lease = JSON.parse(JSON.stringify(h)) as ReturnType<typeof h.toJSON>;
      const others = await Promise.all(
        dbs.map(
          async (d, i) =>
            makeTestClient(await target.connect(i), { prefix: d.client.context.prefix }).client,
        ),
      );
      const resumed = quorumLock(others, "q", {
        requestTimeoutMs: target.requestTimeoutMs,
      }).resume(lease);
      expect(resumed.fence).toBe(h.fence);
      await resumed.extend(8_000);
      await resumed.release();
      expect(await held()).toEqual(all(false));
      expect(() => quorumLock(others.slice(0, majority), "q").resume(lease)).toThrow(
        /lease\.prefixes/,
      );
    });

    it("validates arguments before any request", async () => {
      const { dbs, requests } = await setup();
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
}
