import { Redis } from "@upstash/redis";
import { describe, expect, it } from "vitest";
import {
  createClient,
  LeaseLostError,
  NotHeldError,
  OutcomeUnknownError,
  type ClientOptions,
  type LockEvent,
} from "../src/index.ts";
import { settleScript } from "../src/engine/scripts.generated.ts";
import { countDownScript } from "../src/latch/scripts.generated.ts";
import * as pes from "../src/permit-semaphore/scripts.generated.ts";
import * as sem from "../src/semaphore/scripts.generated.ts";
import { aborted, delay, eventsOf, settlesTo } from "./support.ts";
import { useFaultStack } from "./fault-stack.ts";

// Semaphores and latch over a faulty HTTP path: a response lost after the script ran is retried
// under the same operation id, and the script answers from its record instead of applying again.
const { stack: current, make } = useFaultStack();

describe("semaphores and latch: exactly once over a faulty HTTP path", () => {
  for (const kind of ["drop-after", "fail-after"] as const) {
    it(`semaphore acquire, release and addPermits whose responses are lost (${kind}) apply once`, async () => {
      const { client, events } = make();
      const s = client.semaphore("sem");
      await s.trySetPermits(3);
      await current().faults.add({ kind, match: sem.acquireScript.sha });
      const hold = await s.acquire({ permits: 2 });
      expect(eventsOf(events, "retried").length).toBeGreaterThanOrEqual(1);
      expect(await s.availablePermits()).toBe(1);
      await current().faults.add({ kind, match: sem.releaseScript.sha });
      await hold.release();
      await current().faults.add({ kind, match: sem.addPermitsScript.sha });
      await s.addPermits(1);
      expect(await s.status()).toMatchObject({ available: 4, total: 4 });
    });

    it(`permit acquire and release whose responses are lost (${kind}) apply once`, async () => {
      const { client } = make();
      const s = client.permitExpirableSemaphore("pes");
      await s.trySetPermits(2);
      await current().faults.add({ kind, match: pes.acquireScript.sha });
      const permit = await s.acquire({ leaseMs: 10_000 });
      expect(await s.status()).toMatchObject({ available: 1, live: 1 });
      await current().faults.add({ kind, match: pes.releaseScript.sha });
      await permit.release();
      expect(await s.status()).toMatchObject({ available: 2, live: 0 });
    });

    it(`countDown whose response is lost (${kind}) counts once`, async () => {
      const { client } = make();
      const latch = client.countDownLatch("latch");
      await latch.trySetCount(3);
      await current().faults.add({ kind, match: countDownScript.sha });
      expect(await latch.countDown()).toBe(2);
      expect(await latch.getCount()).toBe(2);
    });
  }

  it("an acquire whose outcome stays unknown is abandoned: its permits come back", async () => {
    const { client } = make({ retryWindowMs: 300, requestTimeoutMs: 1_000 });
    const s = client.semaphore("unknown");
    await s.trySetPermits(2);
    await current().faults.add({ kind: "drop-after", times: 50, match: sem.acquireScript.sha });
    // the settle fails too (otherwise it finds the grant and the caller gets it)
    await current().faults.add({ kind: "fail-before", times: 50, match: settleScript.sha });
    await expect(s.acquire({ permits: 2 })).rejects.toBeInstanceOf(OutcomeUnknownError);
    await current().faults.clear();
    await client.settled();
    expect(await s.availablePermits()).toBe(2);
  });

  it("an acquire whose every response is lost is settled: the caller gets the permits it took", async () => {
    const { client } = make({ retryWindowMs: 300, requestTimeoutMs: 1_000 });
    const s = client.semaphore("settled");
    await s.trySetPermits(2);
    await current().faults.add({ kind: "drop-after", times: 50, match: sem.acquireScript.sha });
    const hold = await s.acquire({ permits: 2 });
    await current().faults.clear();
    expect(await s.availablePermits()).toBe(0);
    await hold.release();
    expect(await s.availablePermits()).toBe(2);
  });

  it("a permit acquire whose outcome stays unknown is abandoned: the permit comes back", async () => {
    const { client } = make({ retryWindowMs: 300, requestTimeoutMs: 1_000 });
    const s = client.permitExpirableSemaphore("unknown-pes");
    await s.trySetPermits(1);
    await current().faults.add({ kind: "drop-after", times: 50, match: pes.acquireScript.sha });
    // the settle fails too (otherwise it finds the grant and the caller gets it)
    await current().faults.add({ kind: "fail-before", times: 50, match: settleScript.sha });
    await expect(s.acquire({ leaseMs: 60_000 })).rejects.toBeInstanceOf(OutcomeUnknownError);
    await current().faults.clear();
    await client.settled();
    expect(await s.status()).toMatchObject({ available: 1, live: 0 });
  });
});

// A PermitExpirableSemaphore waiter enters on its pushed grant, as a Lock's waiter does: the grant
// is a permit that lapses after the claim window unless claimed, and the claim (the permit's
// first renewal) goes in the background. (The test clients above count requests through a
// wrapper without push; these use the REST backend as a user would, with its stream.)
/**
 * A REST client as a user makes one (its stream included; claim window 800 ms) with its events,
 * and another client on the same prefix.
 */
const pushClients = (extra: Omit<ClientOptions, "redis"> = {}) => {
  const events: LockEvent[] = [];
  const prefix = `p${Math.random().toString(36).slice(2)}`;
  const redis = () => new Redis({ url: current().rest.url, token: current().rest.token });
  const onEvent = (e: LockEvent) => events.push(e);
  const client = createClient({ ...extra, redis: redis(), prefix, claimWindowMs: 800, onEvent });
  return { events, client, other: createClient({ ...extra, redis: redis(), prefix }) };
};

/**
 * The head's new stream goes live, and the head asks once more then (a grant made before it went
 * live would have gone unheard): two busy attempts, the second on a live stream.
 */
const headListening = async (events: LockEvent[]) => {
  while (eventsOf(events, "waited").length < 2) await delay(5);
};

describe("permit-expirable semaphore: a waiter enters on its pushed grant", () => {
  /** A holder of the only permit, and a waiter queued behind it whose stream is live. */
  const queuedBehindHolder = async (name: string) => {
    const { events, client } = pushClients();
    const s = client.permitExpirableSemaphore(name);
    await s.trySetPermits(1);
    const holder = await s.acquire({ leaseMs: 10_000 });
    const waiting = s.acquire({ leaseMs: 10_000, waitMs: 10_000 });
    await headListening(events);
    return { client, events, s, holder, waiting };
  };

  it("enters on the message, with no second attempt, and its claim makes the lease a full one", async () => {
    const { client, events, s, holder, waiting } = await queuedBehindHolder("pushed");
    await holder.release();
    const permit = await waiting;
    const acquired = eventsOf(events, "acquired");
    expect(acquired.at(-1)).toMatchObject({ fence: permit.fence, attempts: 2 }); // none after
    expect(permit.fence).toBeGreaterThan(holder.fence);
    // Past the 800 ms claim window: only the background claim keeps the permit now.
    await delay(1_200);
    expect(permit.signal.aborted).toBe(false);
    expect(await s.status()).toMatchObject({ available: 0, live: 1 });
    await permit.release();
    expect(await s.status()).toMatchObject({ available: 1, live: 0 });
    await client.settled();
  });

  it("a claim that never lands ends the permit by the grant's deadline, and the permit comes back", async () => {
    const { client, events, s, holder, waiting } = await queuedBehindHolder("unclaimed");
    // Every renewal of a permit fails before it runs: the claim never lands.
    await current().faults.add({ kind: "fail-before", times: 100, match: pes.extendScript.sha });
    await holder.release();
    const permit = await waiting;
    expect(eventsOf(events, "acquired").at(-1)).toMatchObject({ attempts: 2 }); // none after
    const enteredAt = Date.now();
    await aborted(permit.signal, 2_000);
    // The holder gave up no later than the grant lapses on the server (800 ms after it was made,
    // which was after the waiter's last attempt was sent: the holder counts from that send).
    expect(Date.now() - enteredAt).toBeLessThanOrEqual(800);
    expect(await settlesTo(async () => (await s.status()).live, 0, 1_500)).toBe(0);
    expect(await s.availablePermits()).toBe(1);
    await current().faults.clear();
    await client.settled();
  });
});

// The plain Semaphore's waiter enters on its pushed grant too: the grant reserves the permits
// under its waiter id until the claim window ends, and the claim (a try-only acquire under that
// id) goes in the background; `hold.signal` tells the holder if it did not land in time.
describe("semaphore: a waiter enters on its pushed grant", () => {
  /** A holder of the only permit, and a waiter queued behind it whose stream is live. */
  const queuedBehindHolder = async (name: string, extra: Omit<ClientOptions, "redis"> = {}) => {
    const { events, client, other } = pushClients(extra);
    const s = client.semaphore(name);
    await s.trySetPermits(1);
    const holder = await s.acquire();
    const waiting = s.acquire({ waitMs: 10_000 });
    await headListening(events);
    return { client, events, s, holder, waiting, other: other.semaphore(name) };
  };

  it("enters on the message, with no second attempt, and its claim takes the permits for good", async () => {
    const { client, events, s, holder, waiting } = await queuedBehindHolder("pushed");
    await holder.release();
    const hold = await waiting;
    expect(eventsOf(events, "acquired").at(-1)).toMatchObject({ attempts: 2 }); // none after
    // Past the 800 ms claim window: only the claim keeps the permit taken now.
    await delay(1_200);
    expect(hold.signal.aborted).toBe(false);
    expect(await s.status()).toMatchObject({ available: 0, waiters: 0 });
    await hold.release();
    expect(await s.availablePermits()).toBe(1);
    await expect(hold.release()).rejects.toBeInstanceOf(NotHeldError);
    await client.settled();
  });

  it("a claim that never lands aborts the hold's signal by the grant's deadline, and the permit comes back once", async () => {
    const { client, events, s, holder, waiting } = await queuedBehindHolder("unclaimed");
    // Every acquire fails before it runs from here on: the claim never lands.
    await current().faults.add({ kind: "fail-before", times: 100, match: sem.acquireScript.sha });
    await holder.release();
    const hold = await waiting;
    expect(eventsOf(events, "acquired").at(-1)).toMatchObject({ attempts: 2 }); // none after
    const enteredAt = Date.now();
    await aborted(hold.signal, 2_000);
    expect(hold.signal.reason).toBeInstanceOf(LeaseLostError);
    // No later than the grant lapses on the server (800 ms after it was made, which was after
    // the waiter's last attempt was sent: the holder counts from that send).
    expect(Date.now() - enteredAt).toBeLessThanOrEqual(800);
    expect(eventsOf(events, "lost").at(-1)).toMatchObject({
      name: "unclaimed",
      reason: "deadline",
    });
    await expect(hold.release()).rejects.toThrow(/lapsed before its claim landed/);
    await current().faults.clear();
    await client.settled();
    expect(await settlesTo(() => s.availablePermits(), 1, 1_500)).toBe(1);
    expect(await s.status()).toMatchObject({ available: 1, total: 1 });
  });

  for (const execute of [false, true]) {
    it(`released before its claim answered (the claim ${execute ? "ran" : "did not run"}), the permit comes back exactly once`, async () => {
      const { client, s, holder, waiting } = await queuedBehindHolder(`early-${execute}`);
      await current().faults.add({ kind: "hang", times: 1, execute, match: sem.acquireScript.sha });
      await holder.release();
      const hold = await waiting;
      await delay(50); // the claim is out, and hangs
      await hold.release();
      expect(await s.availablePermits()).toBe(1);
      await client.settled(); // the claim's retry finds its operation tombstoned
      expect(await s.status()).toMatchObject({ available: 1, total: 1, waiters: 0 });
      expect(hold.signal.aborted).toBe(false);
      await current().faults.clear();
    });
  }

  it("withPermits rejects with LeaseLostError when the permits it entered on were lost", async () => {
    const { events, client } = pushClients();
    const s = client.semaphore("with");
    await s.trySetPermits(1);
    const holder = await s.acquire();
    const result = s.withPermits(
      async (hold) => {
        await aborted(hold.signal, 2_000);
        return "done";
      },
      { waitMs: 10_000 },
    );
    await headListening(events);
    // Every acquire fails before it runs from here on: the claim never lands.
    await current().faults.add({ kind: "fail-before", times: 100, match: sem.acquireScript.sha });
    await holder.release();
    await expect(result).rejects.toBeInstanceOf(LeaseLostError);
    await current().faults.clear();
    await client.settled();
    expect(await settlesTo(() => s.availablePermits(), 1, 1_500)).toBe(1);
  });

  it("a hold serialised before its claim landed is given back exactly once, by any copy", async () => {
    const { client, s, holder, waiting, other } = await queuedBehindHolder("serialised");
    await holder.release();
    const hold = await waiting;
    const json = JSON.parse(JSON.stringify(hold)) as ReturnType<typeof hold.toJSON>;
    expect(json).toMatchObject({ kind: "semaphore", permits: 1 });
    expect(typeof json.claimOp).toBe("string");
    await client.settled(); // the claim landed: the permit is taken for good
    expect(await s.availablePermits()).toBe(0);
    await other.resume(json).release();
    expect(await s.availablePermits()).toBe(1);
    // The original and a second copy share the one intent: no second give-back.
    await hold.release();
    await other.resume(json).release();
    expect(await s.status()).toMatchObject({ available: 1, total: 1 });
  });

  it("a copy serialised before its claim landed and released after the claim's record expired says NotHeldError", async () => {
    const short = {
      retryWindowMs: 200,
      requestTimeoutMs: 200,
      clockErrorMs: 50,
      operationRecordTtlMs: 1_500,
    };
    const { client, s, holder, waiting, other } = await queuedBehindHolder("expired", short);
    await holder.release();
    const hold = await waiting;
    const json = JSON.parse(JSON.stringify(hold)) as ReturnType<typeof hold.toJSON>;
    await client.settled();
    await delay(3_000); // the claim's record (its deadline, within 0.8 s, + 1.3 s) is gone
    await expect(other.resume(json).release()).rejects.toBeInstanceOf(NotHeldError);
    // Nothing could tell what the claim took, so nothing was given back: the permit stays taken.
    expect(await s.availablePermits()).toBe(0);
  });

  it("a serialised hold's claim fields are checked by name", () => {
    const s = createClient({
      redis: new Redis({ url: "http://127.0.0.1:1", token: "t" }),
    }).semaphore("x");
    const base = {
      v: 1,
      kind: "semaphore",
      prefix: "edgelock",
      name: "x",
      permits: 1,
      releaseOp: "r",
    } as const;
    expect(() => s.resume({ ...base, claimOp: "c" })).toThrow(/hold\.claimWaiter/);
    expect(() => s.resume({ ...base, claimWaiter: "w", claimOp: "" })).toThrow(/hold\.claimOp/);
    expect(() => s.resume({ ...base, claimWaiter: "w", claimOp: "c", claimDeadline: -1 })).toThrow(
      /hold\.claimDeadline/,
    );
  });
});
