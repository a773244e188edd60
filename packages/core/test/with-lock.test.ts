import { harness } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import {
  LeaseLostError,
  quorumLock,
  resolveBackend,
  type AcquireOptions,
  type EdgelockClient,
} from "../src/index.ts";
import { switchableBackend } from "./quorum-backends.ts";
import { aborted, eventsOf, makeTestClient } from "./support.ts";

// withLock never returns normally after its lease was lost during fn, and never hides fn's error.

interface HasSignal {
  readonly signal: AbortSignal;
}
type WithLock = <T>(fn: (held: HasSignal) => Promise<T>, options?: AcquireOptions) => Promise<T>;

const withLocks: Record<string, (c: EdgelockClient) => WithLock> = {
  Lock: (c) => (fn, o) => c.lock("w").withLock(fn, o),
  FairLock: (c) => (fn, o) => c.fairLock("w").withLock(fn, o),
  "ReadWriteLock write": (c) => (fn, o) => c.readWriteLock("w").write.withLock(fn, o),
  "ReadWriteLock read": (c) => (fn, o) => c.readWriteLock("w").read.withLock(fn, o),
  MultiLock: (c) => (fn, o) => c.multiLock(["w1", "w2"]).withLock(fn, o),
  PermitExpirableSemaphore: (c) => async (fn, o) => {
    await c.permitExpirableSemaphore("w").trySetPermits(1);
    return c.permitExpirableSemaphore("w").withPermit(fn, o);
  },
  "quorum lock": (c) => (fn, o) => quorumLock([c], "w").withLock(fn, o),
};

const rest = () => ({ url: harness().restUrl, token: harness().restToken });
const prefix = () => `wl${Math.random().toString(36).slice(2)}`;

describe("withLock after a lease lost during fn", () => {
  for (const [kind, withLockOf] of Object.entries(withLocks)) {
    it(`${kind}: rejects with the LeaseLostError instead of returning fn's value`, async () => {
      const withLock = withLockOf(makeTestClient(rest(), { prefix: prefix() }).client);
      const error = await withLock(
        async (held) => {
          await aborted(held.signal, 3_000); // a fixed lease that runs out mid-work
          return "done";
        },
        { leaseMs: 300 },
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LeaseLostError);
      expect((error as LeaseLostError).reason).toBe("deadline");
    });

    it(`${kind}: fn's own error stays the one thrown, unchanged`, async () => {
      const withLock = withLockOf(makeTestClient(rest(), { prefix: prefix() }).client);
      const declined = new Error("card declined");
      const error = await withLock(
        async (held) => {
          await aborted(held.signal, 3_000);
          throw declined;
        },
        { leaseMs: 300 },
      ).catch((e: unknown) => e);
      expect(error).toBe(declined);
    });
  }

  it("Lock: a loss found by the release itself (the server no longer had the hold) rejects too", async () => {
    const { client } = makeTestClient(rest(), { prefix: prefix() });
    const error = await client
      .lock("gone")
      .withLock(async () => {
        await client.lock("gone").forceUnlock();
        return "done";
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LeaseLostError);
    expect((error as LeaseLostError).reason).toBe("gone");
  });
});

describe("withLock when the release fails", () => {
  const switchable = () => {
    const { backend, setDown } = switchableBackend(resolveBackend(rest()));
    return { ...makeTestClient(backend, { prefix: prefix() }), setDown };
  };

  it("fn's error is not replaced by the release's failure", async () => {
    const { client, setDown, events } = switchable();
    const declined = new Error("card declined");
    const error = await client
      .lock("r")
      .withLock(() => {
        setDown(true);
        throw declined;
      })
      .catch((e: unknown) => e);
    expect(error).toBe(declined);
    expect(eventsOf(events, "release-failed")).toHaveLength(1);
  });

  it("fn's value is returned when the work ended with the lease intact (the lease runs out on its own)", async () => {
    const { client, setDown, events } = switchable();
    let signal: AbortSignal | undefined;
    const value = await client.lock("r2").withLock((held) => {
      signal = held.signal;
      setDown(true);
      return 42;
    });
    expect(value).toBe(42);
    expect(eventsOf(events, "release-failed")).toHaveLength(1);
    expect((signal?.reason as LeaseLostError).reason).toBe("release-failed");
  });

  it("a dispose that cannot reach the server never throws: release-failed, on the event and the signal", async () => {
    const { client, setDown, events } = switchable();
    const held = await client.lock("r3").acquire();
    setDown(true);
    await held[Symbol.asyncDispose]();
    expect(eventsOf(events, "release-failed")).toHaveLength(1);
    expect(held.signal.aborted).toBe(true);
    expect((held.signal.reason as LeaseLostError).reason).toBe("release-failed");
  });

  it("Semaphore.withPermits: fn's value, and fn's error unchanged", async () => {
    const { client } = makeTestClient(rest(), { prefix: prefix() });
    const sem = client.semaphore("s");
    await sem.trySetPermits(1);
    expect(await sem.withPermits(() => "ok")).toBe("ok");
    const declined = new Error("card declined");
    expect(await sem.withPermits(() => Promise.reject(declined)).catch((e: unknown) => e)).toBe(
      declined,
    );
    expect(await sem.availablePermits()).toBe(1);
  });
});
