import { keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import {
  LeaseLostError,
  resolveBackend,
  type Backend,
  type EdgelockClient,
} from "../../src/index.ts";
import { aborted, delay, makeTestClient } from "../support.ts";
import type { RegressionTarget } from "./lock-regressions.ts";
import { serverLeftMs } from "./semaphore-regressions.ts";

/** A hold of one kind, as the tests need it: serialised, and what the server has left of it. */
interface Kind {
  readonly kind: string;
  acquire(
    client: EdgelockClient,
    leaseMs: number,
  ): Promise<{
    toJSON(): { expiresAt: number };
    serverMs(): Promise<number>;
    extend(ms: number): Promise<unknown>;
    readonly signal: AbortSignal;
  }>;
}

const MULTI = ["{r}:a", "{r}:b", "solo"];

/** What the tests use of any leased hold. */
const view = (held: {
  toJSON(): { expiresAt: number };
  extend(ms: number): Promise<unknown>;
  readonly signal: AbortSignal;
}) => ({
  toJSON: () => held.toJSON(),
  extend: (ms: number) => held.extend(ms),
  signal: held.signal,
});

/** A backend whose replies come `lagMs` late while `lagMs` is set (a slow way back). */
function laggingBackend(inner: Backend): { backend: Backend; lagMs: number } {
  const lagging = {
    lagMs: 0,
    backend: {
      kind: inner.kind,
      async command(args: readonly (string | number)[], signal: AbortSignal) {
        const reply = await inner.command(args, signal);
        if (lagging.lagMs > 0) await delay(lagging.lagMs);
        return reply;
      },
    } as Backend,
  };
  return lagging;
}

const KINDS: readonly Kind[] = [
  {
    kind: "lock",
    async acquire(client, leaseMs) {
      const held = await client.lock("r").acquire({ leaseMs });
      return { ...view(held), serverMs: () => client.lock("r").remainingMs() };
    },
  },
  {
    kind: "fair-lock",
    async acquire(client, leaseMs) {
      const held = await client.fairLock("r").acquire({ leaseMs });
      return { ...view(held), serverMs: () => client.fairLock("r").remainingMs() };
    },
  },
  {
    kind: "read-write-lock (read)",
    async acquire(client, leaseMs) {
      const held = await client.readWriteLock("r").read.acquire({ leaseMs });
      const serverMs = () => client.readWriteLock("r").read.remainingMs();
      return { ...view(held), serverMs };
    },
  },
  {
    kind: "read-write-lock (write)",
    async acquire(client, leaseMs) {
      const held = await client.readWriteLock("r").write.acquire({ leaseMs });
      const serverMs = () => client.readWriteLock("r").write.remainingMs();
      return { ...view(held), serverMs };
    },
  },
  {
    kind: "multi-lock",
    async acquire(client, leaseMs) {
      const held = await client.multiLock(MULTI).acquire({ leaseMs });
      const serverMs = async () =>
        Math.min(...(await Promise.all(MULTI.map((n) => client.lock(n).remainingMs()))));
      return { ...view(held), serverMs };
    },
  },
  {
    kind: "permit-expirable-semaphore",
    async acquire(client, leaseMs) {
      const pes = client.permitExpirableSemaphore("r");
      await pes.trySetPermits(1);
      const permit = await pes.acquire({ leaseMs });
      const { prefix } = client.context;
      const redis = client.context.backend;
      return {
        ...view(permit),
        serverMs: () => serverLeftMs(redis, prefix, "r", permit.id),
      };
    },
  },
];

/**
 * Issue 13, "a resumed hold is trusted from its first confirmed renewal, not from the wall-clock
 * `expiresAt` it carries", for every leased kind, through `client.resumeHold()` (the handles'
 * `resume()` run the same code). The serialising machine's clock was fast, so the carried
 * `expiresAt` is later than the server's expiry: the resumed hold's local deadline must still
 * not pass the server's. On c6a5b43 the MultiLock and the permit trusted `expiresAt` as carried
 * (within the clock error bound, and beyond it); the Lock's kinds subtracted the clock error
 * bound but believed an `expiresAt` skewed beyond it.
 */
export function runResumeRegressions(target: RegressionTarget): void {
  describe(`Resumed holds are provisional (issue 13): ${target.name}`, () => {
    const make = async () => {
      const prefix = keyPrefix();
      const first = makeTestClient(await target.makeRedis(), { prefix }).client;
      const other = makeTestClient(await target.makeRedis(), { prefix }).client;
      return { first, other };
    };

    for (const k of KINDS) {
      it(`${k.kind}: a carried expiresAt skewed within clockErrorMs never outlasts the server's lease`, async () => {
        const { first, other } = await make();
        const held = await k.acquire(first, 3_000);
        // the serialising machine's clock ran 900 ms fast (the default clockErrorMs is 1 s)
        const json = { ...held.toJSON(), expiresAt: held.toJSON().expiresAt + 900 };
        const resumed = other.resumeHold(json as never) as {
          toJSON(): { expiresAt: number };
          signal: AbortSignal;
          release(): Promise<void>;
        };
        const local = resumed.toJSON().expiresAt - Date.now();
        const readFrom = performance.now();
        const serverMs = await held.serverMs();
        expect(serverMs).toBeGreaterThan(1_000);
        // the server's lease runs down while it is read
        expect(local).toBeLessThanOrEqual(serverMs + (performance.now() - readFrom) + 50);
        // it aborts on its own, as a deadline, while the server may still hold it
        const reason = await aborted(resumed.signal, 5_000);
        expect(reason).toBeInstanceOf(LeaseLostError);
        expect((reason as LeaseLostError).reason).toBe("deadline");
        await resumed.release(); // still reaches the server: a provisional hold is not known lost
        expect(await held.serverMs()).toBeLessThanOrEqual(0);
      });

      it(`${k.kind}: a carried expiresAt far off (beyond clockErrorMs) is bounded by the carried leaseMs`, async () => {
        const { first, other } = await make();
        const start = performance.now();
        const held = await k.acquire(first, 2_000);
        const json = { ...held.toJSON(), expiresAt: Date.now() + 60_000 };
        const resumed = other.resumeHold(json as never) as {
          toJSON(): { expiresAt: number };
          extend(ms: number): Promise<void>;
          release(): Promise<void>;
        };
        const local = resumed.toJSON().expiresAt - Date.now();
        const serverMs = await held.serverMs();
        // the server's lease ran from its grant, after `start`; the resumed one can only know leaseMs
        expect(local).toBeLessThanOrEqual(serverMs + (performance.now() - start) + 50);
        expect(local).toBeLessThan(10_000);
        // its first confirmed renewal makes it trusted: from then on, its own lease
        await resumed.extend(8_000);
        const trusted = resumed.toJSON().expiresAt - Date.now();
        expect(trusted).toBeGreaterThan(6_000);
        // The server's lease is read a round trip later, and has run down by that much meanwhile
        // (a loaded CI run saw 104 ms between the two).
        const readFrom = performance.now();
        const serverLeft = await held.serverMs();
        expect(trusted).toBeLessThanOrEqual(serverLeft + (performance.now() - readFrom) + 50);
        await resumed.release();
      });

      it(`${k.kind}: a hold lost while its shortening renewal was in flight serialises no later than its loss, whatever that renewal's late answer`, async () => {
        const lagging = laggingBackend(resolveBackend(await target.makeRedis()));
        const { client } = makeTestClient(lagging.backend, { prefix: keyPrefix() });
        const held = await k.acquire(client, 5_000);
        // extend(100): until its answer the deadline is its send + 100 ms; the answer comes
        // 400 ms late, after the hold was lost to that deadline.
        lagging.lagMs = 400;
        const extending = held.extend(100).catch((e: unknown) => e);
        const reason = await aborted(held.signal, 2_000);
        expect((reason as LeaseLostError).reason).toBe("deadline");
        await extending;
        lagging.lagMs = 0;
        // Not the acquire's 5 s lease back: a resumer would believe a hold the server let go.
        expect(held.toJSON().expiresAt).toBeLessThanOrEqual(Date.now() + 5);
      });
    }
  });
}
