import { harness } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import { AcquireTimeoutError, quorumLock, type EdgelockClient } from "../src/index.ts";
import { makeTestClient } from "./support.ts";

// acquire({ waitMs }) that times out behind a holder says what the last busy answer was
// (`AcquireTimeoutError.hint`), so a caller can tell when to come back without another request.

const LEASE_MS = 5_000;

interface Taker {
  acquire(options?: { waitMs?: number }): Promise<unknown>;
}
interface Held {
  release(): Promise<void>;
}

/** Every primitive with a timed acquire: a contender, and a holder with a fixed lease. */
const primitives: Record<
  string,
  (a: EdgelockClient, b: EdgelockClient) => Promise<{ contender: Taker; hold(): Promise<Held> }>
> = {
  Lock: async (a, b) => ({
    contender: a.lock("l"),
    hold: () => b.lock("l").acquire({ leaseMs: LEASE_MS }),
  }),
  FairLock: async (a, b) => ({
    contender: a.fairLock("f"),
    hold: () => b.fairLock("f").acquire({ leaseMs: LEASE_MS }),
  }),
  "ReadWriteLock write": async (a, b) => ({
    contender: a.readWriteLock("rw").write,
    hold: () => b.readWriteLock("rw").read.acquire({ leaseMs: LEASE_MS }),
  }),
  "ReadWriteLock read": async (a, b) => ({
    contender: a.readWriteLock("rr").read,
    hold: () => b.readWriteLock("rr").write.acquire({ leaseMs: LEASE_MS }),
  }),
  MultiLock: async (a, b) => ({
    contender: a.multiLock(["{m}1", "{m}2"]),
    hold: () => b.lock("{m}2").acquire({ leaseMs: LEASE_MS }),
  }),
  PermitExpirableSemaphore: async (a, b) => {
    await a.permitExpirableSemaphore("p").trySetPermits(1);
    return {
      contender: a.permitExpirableSemaphore("p"),
      hold: () => b.permitExpirableSemaphore("p").acquire({ leaseMs: LEASE_MS }),
    };
  },
};

const redis = () => ({ url: harness().restUrl, token: harness().restToken });
const pair = () => {
  const prefix = `hint${Math.random().toString(36).slice(2)}`;
  return {
    a: makeTestClient(redis(), { prefix }).client,
    b: makeTestClient(redis(), { prefix }).client,
  };
};

async function timeoutOf(contender: Taker): Promise<AcquireTimeoutError> {
  const error: unknown = await contender.acquire({ waitMs: 300 }).then(
    () => expect.fail("acquired a held lock"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AcquireTimeoutError);
  // How long it waited (its budget, give or take a request) and how often it asked.
  const { waitedMs, attempts } = error as AcquireTimeoutError;
  expect(waitedMs).toBeGreaterThanOrEqual(250);
  expect(waitedMs).toBeLessThan(300 + 2_000);
  expect(attempts).toBeGreaterThanOrEqual(1);
  return error as AcquireTimeoutError;
}

describe("AcquireTimeoutError.hint", () => {
  it("is an own property, undefined when no busy answer came", () => {
    const error = new AcquireTimeoutError("x", 0, 0);
    expect(Object.hasOwn(error, "hint")).toBe(true);
    expect(error.hint).toBeUndefined();
  });

  for (const [kind, setup] of Object.entries(primitives)) {
    it(`${kind}: the last busy answer, the holder's remaining lease within its lease`, async () => {
      const { a, b } = pair();
      const { contender, hold } = await setup(a, b);
      const holder = await hold();
      const { hint } = await timeoutOf(contender);
      await holder.release();
      expect(hint).toBeDefined();
      expect(hint!.remainingLeaseMs).toBeGreaterThan(0);
      expect(hint!.remainingLeaseMs).toBeLessThanOrEqual(LEASE_MS);
    });
  }

  it("Lock: the name's mean hold, from the holds it has seen", async () => {
    const { a, b } = pair();
    for (let i = 0; i < 3; i++) {
      const h = await b.lock("mh").acquire({ leaseMs: LEASE_MS });
      await new Promise((r) => setTimeout(r, 150));
      await h.release();
    }
    const holder = await b.lock("mh").acquire({ leaseMs: LEASE_MS });
    const { hint } = await timeoutOf(a.lock("mh"));
    await holder.release();
    expect(hint!.meanHoldMs).toBeGreaterThanOrEqual(100);
    expect(hint!.meanHoldMs).toBeLessThan(1_000);
    expect(hint!.holdAgeMs).toBeGreaterThan(0);
  });

  it("Semaphore: the last busy answer, with the waiter's place in the queue", async () => {
    const { a, b } = pair();
    await a.semaphore("s").trySetPermits(1);
    const holder = await b.semaphore("s").acquire();
    const { hint } = await timeoutOf(a.semaphore("s"));
    await holder.release();
    // Permits have no lease: nothing to report but the queue.
    expect(hint).toMatchObject({ remainingLeaseMs: 0 });
    expect(hint!.position).toBeGreaterThanOrEqual(1);
  });

  it("quorum lock: the busy databases' remaining lease, within the holder's lease", async () => {
    const prefix = `hq${Math.random().toString(36).slice(2)}`;
    const clients = [1, 2, 3].map(
      (i) => makeTestClient(redis(), { prefix: `${prefix}${i}` }).client,
    );
    const holder = await quorumLock(clients, "q").acquire({ leaseMs: LEASE_MS });
    const { hint } = await timeoutOf(quorumLock(clients, "q"));
    await holder.release();
    expect(hint!.remainingLeaseMs).toBeGreaterThan(0);
    expect(hint!.remainingLeaseMs).toBeLessThanOrEqual(LEASE_MS);
  });
});
