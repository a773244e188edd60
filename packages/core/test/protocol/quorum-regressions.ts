import { keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import {
  LeaseLostError,
  LockError,
  QuorumError,
  type Backend,
  quorumLock,
  resolveBackend,
  type ClientOptions,
  type RedisInput,
} from "../../src/index.ts";
import { LATE, TOMBSTONED } from "../../src/engine/operation.ts";
import { settleScript } from "../../src/engine/scripts.generated.ts";
import { quorumKeys } from "../../src/keys.ts";
import {
  acquireScript,
  commitScript,
  extendScript,
  releaseScript,
} from "../../src/quorum/scripts.generated.ts";
import { delay, eventsOf, makeTestClient } from "../support.ts";
import { lateCopyBackend, runs } from "./late-copy-backend.ts";
import type { RegressionTarget } from "./lock-regressions.ts";

/** Polls `ready` every 5 ms for at most `ms`, without failing: the assertions after it judge. */
async function awhile(ready: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!ready() && Date.now() < end) await delay(5);
}

/**
 * Acquires on every database, not just a majority: a test about what one database's late copy
 * does needs the hold there. Under load a round may leave a slow database out; release and go
 * again (the claim under test is about the copy, not about the round's timing).
 */
async function acquireOnAll<H extends { toJSON(): { token: string }; release(): Promise<void> }>(
  q: { acquire(o: { leaseMs: number }): Promise<H> },
  dbs: readonly { read(...args: string[]): Promise<unknown>; keys: { lock: string } }[],
): Promise<H> {
  for (let tries = 1; ; tries++) {
    const held = await q.acquire({ leaseMs: 10_000 });
    const owners = await Promise.all(dbs.map((d) => d.read("HGET", d.keys.lock, "o")));
    if (owners.every((o) => o === held.toJSON().token) || tries === 5) return held;
    await held.release();
  }
}

/** The first slot of a delivered late copy's reply (what its script answered). */
function statusOf(reply: unknown): unknown {
  return Array.isArray(reply) ? Number(reply[0]) : reply;
}

/**
 * Issue 13's finding 2 on the quorum lock, as reproduced against c6a5b43 (where it fails): five
 * databases (kept apart by their prefixes on one server), each behind its own late-copy wrapper,
 * so REST and TCP see the same reordering.
 */
export function runQuorumRegressions(target: RegressionTarget): void {
  describe(`Quorum lock protocol regressions (issue 13): ${target.name}`, () => {
    /**
     * Five databases (one server, five prefixes), each behind its own late-copy wrapper and its
     * own client; warmed up (scripts loaded, connections open) with a generous timeout.
     */
    const fiveDatabases = async (name: string, options: Omit<ClientOptions, "redis"> = {}) => {
      const base = keyPrefix();
      const dbs = await Promise.all(
        [0, 1, 2, 3, 4].map(async (i) => {
          const prefix = `${base}-db${i}`;
          const backend = resolveBackend(await target.makeRedis());
          const late = lateCopyBackend(backend);
          const t = makeTestClient(late.backend, { prefix, ...options });
          const keys = quorumKeys(prefix, name);
          const read = async (...args: string[]) =>
            backend.command(args, AbortSignal.timeout(5_000));
          return { prefix, backend, late, keys, read, ...t };
        }),
      );
      const warm = await quorumLock(
        dbs.map((d) => d.client),
        name,
        { requestTimeoutMs: 3_000 },
      ).acquire({ leaseMs: 10_000 });
      await warm.extend(10_000);
      await warm.release();
      return dbs;
    };
    // Records, tombstones and deadlines of these clients are all gone ~2.4 s after a call.
    const small = { requestTimeoutMs: 300, retryWindowMs: 300, clockErrorMs: 100 };

    it("finding 1: a late copy of a busy acquire on one database grants nothing, after every record expired", async () => {
      const dbs = await fiveDatabases("f1", small);
      const q = quorumLock(
        dbs.map((d) => d.client),
        "f1",
        { requestTimeoutMs: 300 },
      );
      const holder = await q.acquire({ leaseMs: 10_000 });
      dbs[0]!.late.on(runs(acquireScript), { kind: "hold" });
      // Busy on the four others: not acquired.
      expect(await q.tryAcquire({ leaseMs: 10_000 })).toBeNull();
      await holder.release();
      expect(dbs[0]!.late.heldCount).toBe(1);
      await delay(2_600); // past the copy's deadline, its record and the release's tombstone
      const [reply] = await dbs[0]!.late.deliver();
      expect(Number(await dbs[0]!.read("EXISTS", dbs[0]!.keys.lock))).toBe(0);
      expect(statusOf(reply)).toBe(LATE);
      const next = await q.tryAcquire({ leaseMs: 10_000 });
      expect(next).not.toBeNull();
      await next!.release();
    });

    it("a release tombstones an acquisition that did not take the lock: a copy still inside its deadline takes nothing", async () => {
      // Fresh clients with a wide clock error bound: a copy's deadline lies five seconds past
      // its send, so the deadline alone does not stop a copy delivered soon after.
      const dbs = await fiveDatabases("rt", { requestTimeoutMs: 300 });
      const holder = await quorumLock(
        dbs.map((d) => d.client),
        "rt",
        { requestTimeoutMs: 300 },
      ).acquire({ leaseMs: 10_000 });
      // The contender's clients are new (no server time yet), over the same wrapped backends.
      const fresh = dbs.map(
        (d) =>
          makeTestClient(d.late.backend, {
            prefix: d.prefix,
            requestTimeoutMs: 300,
            clockErrorMs: 5_000,
          }).client,
      );
      const q = quorumLock(fresh, "rt", { requestTimeoutMs: 300 });
      // Database 0 neither runs the acquire nor can settle it: only the release can stop it.
      dbs[0]!.late.on(runs(acquireScript), { kind: "hold" });
      dbs[0]!.late.on(runs(settleScript), { kind: "hold" }, 10);
      expect(await q.tryAcquire({ leaseMs: 10_000 })).toBeNull();
      await holder.release();
      const [reply] = await dbs[0]!.late.deliver();
      expect(Number(await dbs[0]!.read("EXISTS", dbs[0]!.keys.lock))).toBe(0);
      expect(statusOf(reply)).toBe(TOMBSTONED);
    });

    it("a late copy of a release, settled after the round gave up on it, releases nothing", async () => {
      const dbs = await fiveDatabases("lr", small);
      const q = quorumLock(
        dbs.map((d) => d.client),
        "lr",
        { requestTimeoutMs: 300 },
      );
      const held = await acquireOnAll(q, dbs);
      const token = held.toJSON().token;
      dbs[0]!.late.on(runs(releaseScript), { kind: "hold" });
      await held.release(); // four of five released: a majority
      // The give-up on database 0 settles the release: tombstoned as never applied.
      const settled = () => eventsOf(dbs[0]!.events, "settled");
      await awhile(() => settled().length === 1, 3_000);
      const [reply] = await dbs[0]!.late.deliver();
      // The copy changed nothing: database 0 still has the (dead) hold until its lease ends.
      expect(await dbs[0]!.read("HGET", dbs[0]!.keys.lock, "o")).toBe(token);
      expect(Number(await dbs[0]!.read("PTTL", dbs[0]!.keys.lock))).toBeGreaterThan(5_000);
      expect(statusOf(reply)).toBe(TOMBSTONED);
      expect(settled().map((e) => e.applied)).toEqual([false]);
    });

    it("late copies of a commit and a release, after the attempt gave up, apply nothing (settle tombstones)", async () => {
      const dbs = await fiveDatabases("lc", small);
      const fencesBefore = await Promise.all(dbs.map((d) => d.read("GET", d.keys.fence)));
      const q = quorumLock(
        dbs.map((d) => d.client),
        "lc",
        { requestTimeoutMs: 300 },
      );
      for (const d of dbs.slice(0, 3)) {
        d.late.on(runs(commitScript), { kind: "hold" });
        d.late.on(runs(releaseScript), { kind: "hold" });
      }
      // Taken on all five, stored on two: no majority committed, so it is refused and released.
      const outcome = await q.tryAcquire({ leaseMs: 10_000 }).catch((e: unknown) => e);
      expect(outcome).toBeInstanceOf(QuorumError);
      for (const d of dbs.slice(0, 3)) {
        expect(d.late.heldCount).toBe(2);
        const settled = () => eventsOf(d.events, "settled");
        await awhile(() => settled().length === 2, 3_000);
        const replies = await d.late.deliver();
        // no fence stored by the late commit, and the lock it took is left to expire
        const i = dbs.indexOf(d);
        expect(await d.read("GET", d.keys.fence)).toBe(fencesBefore[i]);
        expect(await d.read("HGET", d.keys.lock, "f")).toBeNull();
        expect(replies.map(statusOf)).toEqual([TOMBSTONED, TOMBSTONED]);
        expect(settled().map((e) => e.applied)).toEqual([false, false]);
      }
    });
    for (const skewMs of [0, 900, -900]) {
      const clock = skewMs === 0 ? "" : `, wall clock ${skewMs > 0 ? "+" : ""}${skewMs} ms off`;
      it(`fresh clients (no server time yet${clock}): acquire 10, extend 5 and release 5 requests over 5 databases`, async () => {
        const base = keyPrefix();
        const prefixes = [0, 1, 2, 3, 4].map((i) => `${base}-db${i}`);
        const redis: RedisInput[] = [];
        for (let i = 0; i < prefixes.length; i++) redis.push(await target.makeRedis());
        const clients = (i: number) =>
          makeTestClient(redis[i]!, {
            prefix: prefixes[i]!,
            wallClock: () => Date.now() + skewMs,
          });
        const warm = await quorumLock(
          prefixes.map((_, i) => clients(i).client),
          "fresh",
          { requestTimeoutMs: 3_000 },
        ).acquire({ leaseMs: 10_000 });
        await warm.extend(10_000);
        await warm.release(); // scripts loaded, connections warm
        const fresh = prefixes.map((_, i) => clients(i));
        const total = () => fresh.reduce((sum, t) => sum + t.requests.total, 0);
        const q = quorumLock(
          fresh.map((t) => t.client),
          "fresh",
          { requestTimeoutMs: 3_000 },
        );
        const held = await q.acquire({ leaseMs: 10_000 });
        expect(total()).toBe(10);
        await held.extend(10_000);
        expect(total()).toBe(15);
        await held.release();
        expect(total()).toBe(20);
      });
    }

    it("a keeper and extend never have two renewals of one hold in flight on a database", async () => {
      const base = keyPrefix();
      const inFlight = [0, 0, 0, 0, 0];
      const most = [0, 0, 0, 0, 0];
      const clients = await Promise.all(
        [0, 1, 2, 3, 4].map(async (i) => {
          const inner = resolveBackend(await target.makeRedis());
          // every renewal takes 150 ms on its way, so a keeper's round meets extend's
          const backend: Backend = {
            kind: inner.kind,
            async command(args, signal) {
              if (!runs(extendScript)(args)) return inner.command(args, signal);
              most[i] = Math.max(most[i]!, ++inFlight[i]!);
              try {
                await delay(150);
                return await inner.command(args, signal);
              } finally {
                inFlight[i]!--;
              }
            },
          };
          return makeTestClient(backend, { prefix: `${base}-db${i}`, leaseMs: 900 });
        }),
      );
      const q = quorumLock(
        clients.map((t) => t.client),
        "serial",
        { requestTimeoutMs: 400 },
      );
      const held = await q.acquire(); // the client's lease (900 ms): kept alive every 300 ms
      const end = Date.now() + 1_200;
      let extended = 0;
      while (Date.now() < end) {
        await held.extend(900);
        extended++;
      }
      const renewed = eventsOf(clients[0]!.events, "renewed").length;
      await held.release();
      expect(renewed).toBeGreaterThan(extended); // the keeper renewed too, meanwhile
      expect(most).toEqual([1, 1, 1, 1, 1]);
    });

    it("a renewal's deadline never lies beyond the hold's local deadline", async () => {
      const base = keyPrefix();
      const sent: { deadline: number; at: number }[] = [];
      const clients = await Promise.all(
        [0, 1, 2, 3, 4].map(async (i) => {
          const inner = resolveBackend(await target.makeRedis());
          const backend: Backend = {
            kind: inner.kind,
            command(args, signal) {
              // EVALSHA sha 3 lock op sentinel token version leaseMs deadline …
              if (runs(extendScript)(args))
                sent.push({ deadline: Number(args[9]), at: Date.now() });
              return inner.command(args, signal);
            },
          };
          return makeTestClient(backend, { prefix: `${base}-db${i}` }).client;
        }),
      );
      // A round may take 900 ms, but the hold's validity (1 000 ms − drift) ends sooner.
      const q = quorumLock(clients, "budget", { requestTimeoutMs: 900 });
      const held = await q.acquire({ leaseMs: 1_000 });
      await delay(600);
      const left = held.remainingMs;
      await held.extend(1_000);
      expect(sent.length).toBeGreaterThanOrEqual(5); // (EVAL after a NOSCRIPT counts twice)
      // the server clock is this machine's: each deadline is within what was left, plus a trip
      for (const s of sent) expect(s.deadline - s.at).toBeLessThanOrEqual(left + 100);
      await held.release();
    });

    it("finding 2: a late copy of an extend that ended in doubt never shortens a later, longer one", async () => {
      const base = keyPrefix();
      const prefixes = [0, 1, 2, 3, 4].map((i) => `${base}-db${i}`);
      const dbs = await Promise.all(
        prefixes.map(async (prefix) => {
          const backend = resolveBackend(await target.makeRedis());
          const late = lateCopyBackend(backend);
          return { prefix, backend, late, client: makeTestClient(late.backend, { prefix }).client };
        }),
      );
      const clients = dbs.map((d) => d.client);
      // Scripts loaded and connections warm (generously), so that only the held copies time out.
      const warm = await quorumLock(clients, "f2", { requestTimeoutMs: 3_000 }).acquire({
        leaseMs: 10_000,
      });
      await warm.extend(10_000);
      await warm.release();
      const q = quorumLock(clients, "f2", { requestTimeoutMs: 400 });
      const held = await q.acquire({ leaseMs: 10_000 });
      for (const d of dbs) d.late.on(runs(extendScript, 2_000), { kind: "hold" }, 1_000);
      await expect(held.extend(2_000)).rejects.toBeInstanceOf(LockError);
      for (const d of dbs) d.late.clear();
      await held.extend(20_000);
      for (const d of dbs) expect(d.late.heldCount).toBeGreaterThanOrEqual(1);
      for (const d of dbs) await d.late.deliver();
      const pttls = await Promise.all(
        dbs.map(async (d) =>
          Number(
            await d.backend.command(
              ["PTTL", quorumKeys(d.prefix, "f2").lock],
              AbortSignal.timeout(5_000),
            ),
          ),
        ),
      );
      for (const ms of pttls) expect(ms).toBeGreaterThan(15_000);
      // what the holder believes never outlasts what a majority of the databases have
      const majority = [...pttls].sort((a, b) => b - a)[2]!;
      expect(held.toJSON().expiresAt - Date.now()).toBeLessThanOrEqual(majority + 50);
      await delay(2_500);
      expect(await q.tryAcquire({ leaseMs: 5_000 })).toBeNull();
      expect(held.signal.aborted).toBe(false);
      await held.release();
    });

    /**
     * A resumed quorum hold whose carried `expiresAt` lies a minute away (a fast clock, a
     * hand-edited hold): two databases' leases run long, so only the majority's expiry counts.
     * On the code before the shared lease modules (b994c97), `resume()` believed `expiresAt` on
     * `Date.now()`, and the signal stayed silent for a minute while a majority had let go.
     */
    const resumedFarOff = async (name: string, leaseMs: number) => {
      const dbs = await fiveDatabases(name);
      const options = { requestTimeoutMs: 300 };
      const held = await quorumLock(
        dbs.map((d) => d.client),
        name,
        options,
      ).acquire({ leaseMs });
      // renewed once by its first holder: every database's lease version is 1 now
      const sentAt = Date.now();
      await held.extend(leaseMs);
      for (const d of dbs.slice(0, 2)) await d.read("PEXPIRE", d.keys.lock, "60000");
      const json = { ...held.toJSON(), expiresAt: Date.now() + 60_000 };
      // another invocation: new clients over the same databases
      const other = dbs.map((d) => makeTestClient(d.late.backend, { prefix: d.prefix }));
      const resumed = quorumLock(
        other.map((t) => t.client),
        name,
        options,
      ).resume(json);
      const requests = () => other.reduce((sum, t) => sum + t.requests.total, 0);
      const resumedAt = Date.now();
      /** When a majority of the databases lets go, on this machine's clock: the 3rd latest expiry. */
      const quorumExpiry = async () => {
        const expiries = await Promise.all(
          dbs.map(async (d) => Date.now() + Number(await d.read("PTTL", d.keys.lock))),
        );
        return expiries.sort((a, b) => b - a)[2]!;
      };
      // The servers' leases ran from the grant, before the resume; the resumed hold can only
      // count the carried lease from its own start: that much later, at most.
      return { dbs, resumed, quorumExpiry, requests, slackMs: resumedAt - sentAt + 50 };
    };

    it("a resumed hold with a carried expiresAt far beyond the servers' leases aborts no later than the quorum-th server expiry", async () => {
      const { dbs, resumed, quorumExpiry, slackMs } = await resumedFarOff("rf", 2_000);
      const expiry = await quorumExpiry();
      expect(expiry - Date.now()).toBeGreaterThan(1_000);
      expect(resumed.toJSON().expiresAt).toBeLessThanOrEqual(expiry + slackMs);
      // By then it has aborted (its deadline's timer is due first, so a busy machine's late
      // timers cannot reorder the two).
      await delay(expiry + slackMs - Date.now());
      expect(resumed.signal.aborted).toBe(true);
      const reason: unknown = resumed.signal.reason;
      expect(reason).toBeInstanceOf(LeaseLostError);
      expect((reason as LeaseLostError).reason).toBe("deadline");
      // Provisional, not known lost: its release still reaches the databases (a majority may
      // have let go by now, so it may answer NotHeldError); the two long leases are freed.
      await resumed.release().catch((e: unknown) => expect(e).toBeInstanceOf(LockError));
      for (const d of dbs.slice(0, 2)) expect(Number(await d.read("EXISTS", d.keys.lock))).toBe(0);
    });

    it("a resumed hold is trusted from its first confirmed renewal on a majority, not from the carried expiresAt", async () => {
      const { resumed, quorumExpiry, requests, slackMs } = await resumedFarOff("rt2", 4_000);
      const expiry = await quorumExpiry();
      expect(resumed.toJSON().expiresAt).toBeLessThanOrEqual(expiry + slackMs);
      // Its first renewal: stale on every database (the quorum's serialised form carries no
      // lease versions, so it resumed at 0), then renewed: 2 requests per database.
      await resumed.extend(8_000);
      expect(requests()).toBe(10);
      const trusted = resumed.toJSON().expiresAt - Date.now();
      expect(trusted).toBeGreaterThan(6_000);
      expect(resumed.toJSON().expiresAt).toBeLessThanOrEqual((await quorumExpiry()) + 50);
      expect(resumed.signal.aborted).toBe(false);
      await resumed.release();
    });

    it("a resumed hold whose carried expiresAt is skewed within clockErrorMs never outlasts the majority's server lease", async () => {
      const dbs = await fiveDatabases("rs");
      const clients = dbs.map((d) => d.client);
      const held = await quorumLock(clients, "rs", { requestTimeoutMs: 300 }).acquire({
        leaseMs: 3_000,
      });
      // the serialising machine's clock ran 900 ms fast (the default clockErrorMs is 1 s)
      const json = { ...held.toJSON(), expiresAt: held.toJSON().expiresAt + 900 };
      const other = dbs.map((d) => makeTestClient(d.late.backend, { prefix: d.prefix }).client);
      const resumed = quorumLock(other, "rs", { requestTimeoutMs: 300 }).resume(json);
      const local = resumed.toJSON().expiresAt;
      const expiries = await Promise.all(
        dbs.map(async (d) => Date.now() + Number(await d.read("PTTL", d.keys.lock))),
      );
      const majority = expiries.sort((a, b) => b - a)[2]!;
      expect(majority - Date.now()).toBeGreaterThan(1_000);
      expect(local).toBeLessThanOrEqual(majority + 50);
      expect(resumed.signal.aborted).toBe(false);
      await resumed.release();
    });

    it("a database where a renewal found the hold gone is out of the hold: no more renewals there, the release still goes", async () => {
      const dbs = await fiveDatabases("out");
      const q = quorumLock(
        dbs.map((d) => d.client),
        "out",
        { requestTimeoutMs: 300 },
      );
      const held = await q.acquire({ leaseMs: 10_000 });
      await dbs[0]!.read("DEL", dbs[0]!.keys.lock);
      await held.extend(10_000); // renewed on the four others: a majority
      const before = dbs.map((d) => d.requests.total);
      await held.extend(10_000);
      const renewals = dbs.map((d, i) => d.requests.total - before[i]!);
      expect(renewals).toEqual([0, 1, 1, 1, 1]);
      expect(held.signal.aborted).toBe(false);
      await held.release();
      expect(dbs[0]!.requests.total - before[0]!).toBe(1);
      for (const d of dbs) expect(Number(await d.read("EXISTS", d.keys.lock))).toBe(0);
    });

    it("finding 7: a kept-alive quorum hold extended to a shorter lease is renewed at a third of it", async () => {
      const base = keyPrefix();
      const dbs = await Promise.all(
        [0, 1, 2, 3, 4].map(async (i) => {
          const prefix = `${base}-db${i}`;
          const t = makeTestClient(await target.makeRedis(), { prefix, leaseMs: 6_000 });
          return { ...t, prefix, keys: quorumKeys(prefix, "f7") };
        }),
      );
      const q = quorumLock(
        dbs.map((d) => d.client),
        "f7",
        { requestTimeoutMs: 250 },
      );
      const held = await q.acquire(); // the client's lease (6 s): kept alive every 2 s
      await held.extend(900);
      const renewedBefore = eventsOf(dbs[0]!.events, "renewed").length;
      await delay(2_000);
      // Lost at ~900 ms ("deadline") when the keeper still renews every 2 s.
      expect(held.signal.aborted).toBe(false);
      expect(await q.tryAcquire({ leaseMs: 900 })).toBeNull();
      // renewed every 300 ms (a third of the new lease), not every 2 s
      expect(eventsOf(dbs[0]!.events, "renewed").length - renewedBefore).toBeGreaterThanOrEqual(3);
      await held.release();
      for (const d of dbs) {
        const read = d.client.context.backend;
        expect(
          Number(await read.command(["EXISTS", d.keys.lock], AbortSignal.timeout(5_000))),
        ).toBe(0);
      }
    });
  });
}
