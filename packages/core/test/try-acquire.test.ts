import { harness } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import { InvalidArgumentError, quorumLock, type EdgelockClient } from "../src/index.ts";
import { delay, makeTestClient } from "./support.ts";

// tryAcquire({ waitMs }) is acquire({ waitMs }) whose timeout is a value (null), as Redisson's
// tryLock(waitTime, leaseTime); tryAcquire() without waitMs stays one attempt.

interface Taker {
  tryAcquire(options?: { waitMs?: number; leaseMs?: number }): Promise<unknown>;
}

/** Every primitive with tryAcquire: a contender, and something that holds it meanwhile. */
const primitives: Record<
  string,
  (a: EdgelockClient, b: EdgelockClient) => Promise<{ contender: Taker; hold(): Promise<Held> }>
> = {
  Lock: async (a, b) => ({ contender: a.lock("l"), hold: () => b.lock("l").acquire() }),
  FairLock: async (a, b) => ({
    contender: a.fairLock("f"),
    hold: () => b.fairLock("f").acquire(),
  }),
  "ReadWriteLock write": async (a, b) => ({
    contender: a.readWriteLock("rw").write,
    hold: () => b.readWriteLock("rw").read.acquire(),
  }),
  "ReadWriteLock read": async (a, b) => ({
    contender: a.readWriteLock("rr").read,
    hold: () => b.readWriteLock("rr").write.acquire(),
  }),
  MultiLock: async (a, b) => ({
    // One hash tag: one request per attempt.
    contender: a.multiLock(["{m}1", "{m}2"]),
    hold: () => b.lock("{m}2").acquire(),
  }),
  Semaphore: async (a, b) => {
    await a.semaphore("s").trySetPermits(1);
    return { contender: a.semaphore("s"), hold: () => b.semaphore("s").acquire() };
  },
  PermitExpirableSemaphore: async (a, b) => {
    await a.permitExpirableSemaphore("p").trySetPermits(1);
    return {
      contender: a.permitExpirableSemaphore("p"),
      hold: () => b.permitExpirableSemaphore("p").acquire(),
    };
  },
};

interface Held {
  release(): Promise<void>;
}

const pair = () => {
  const prefix = `try${Math.random().toString(36).slice(2)}`;
  const redis = { url: harness().restUrl, token: harness().restToken };
  return { a: makeTestClient(redis, { prefix }), b: makeTestClient(redis, { prefix }) };
};

describe("tryAcquire({ waitMs })", () => {
  for (const [kind, setup] of Object.entries(primitives)) {
    it(`${kind}: null once waitMs ran out, the hold when it frees up in time`, async () => {
      const { a, b } = pair();
      const { contender, hold } = await setup(a.client, b.client);
      const holder = await hold();
      const start = performance.now();
      expect(await contender.tryAcquire({ waitMs: 300 })).toBeNull();
      expect(performance.now() - start).toBeGreaterThanOrEqual(250);
      // The holder lets go while the contender waits: it gets it within its budget.
      const later = delay(200).then(() => holder.release());
      const got = (await contender.tryAcquire({ waitMs: 5_000 })) as Held | null;
      expect(got).not.toBeNull();
      await later;
      await got!.release();
    });

    it(`${kind}: without waitMs, one request and null when busy`, async () => {
      const { a, b } = pair();
      const { contender, hold } = await setup(a.client, b.client);
      const holder = await hold();
      await contender.tryAcquire(); // scripts loaded: the count below is the warm one
      const before = a.requests.total;
      expect(await contender.tryAcquire()).toBeNull();
      expect(a.requests.total - before).toBe(1);
      await holder.release();
    });

    it(`${kind}: validates waitMs, naming it`, async () => {
      const { a, b } = pair();
      const { contender } = await setup(a.client, b.client);
      for (const waitMs of [-1, 1.5, Number.NaN, "1000"]) {
        const error = await contender.tryAcquire({ waitMs: waitMs as number }).catch((e) => e);
        expect(error).toBeInstanceOf(InvalidArgumentError);
        expect((error as InvalidArgumentError).argument).toBe("options.waitMs");
      }
      const error = await contender.tryAcquire("soon" as never).catch((e: unknown) => e);
      expect((error as InvalidArgumentError).argument).toBe("options");
    });
  }

  it("quorum lock: null once waitMs ran out, the hold when it frees up in time", async () => {
    const prefix = `tq${Math.random().toString(36).slice(2)}`;
    const redis = { url: harness().restUrl, token: harness().restToken };
    const clients = [1, 2, 3].map((i) => makeTestClient(redis, { prefix: `${prefix}${i}` }).client);
    const holder = await quorumLock(clients, "q").acquire();
    const contender = quorumLock(clients, "q");
    expect(await contender.tryAcquire({ waitMs: 300 })).toBeNull();
    const later = delay(200).then(() => holder.release());
    const got = await contender.tryAcquire({ waitMs: 5_000 });
    expect(got).not.toBeNull();
    await later;
    await got!.release();
    const once = await contender.tryAcquire();
    expect(once).not.toBeNull();
    await once!.release();
  });
});
