import { keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import type { EdgelockClient } from "@edgelock/core";
import { delay, makeTestClient } from "../../core/test/support.ts";
import { WORKERD_TARGET, workerdRedis } from "./workerd/upstash.ts";

// Issue 13's finding 7 (the keeper's renewal interval ignored `extend(ms)`: a kept-alive hold
// extended to a shorter lease was lost with no fault, reason `deadline`, and another client was
// granted) on every kind of kept-alive hold, inside workerd. The core's regression suite covers
// the Lock (lock-regressions.ts, run here by regressions.workerd.test.ts), the MultiLock and
// the permit (multi-lock-regressions.ts, semaphore-regressions.ts); every hold restarts its keeper
// through one piece (packages/core/src/lease/hold-keeping.ts), so here every kind again. A kept-alive hold (default lease 6 s) is extended to
// 600 ms: renewed at a third of that, it is still held 1.5 s later; renewed at a third of 6 s,
// it would be lost after 600 ms. The interval is timer-driven, and workerd's clock advances at
// the timers' I/O, so the test reads what the server has, not the local clock.

interface KeptHold {
  readonly signal: AbortSignal;
  extend(ms: number): Promise<void>;
  release(): Promise<void>;
}

interface Kind {
  readonly label: string;
  /** A kept-alive hold of `name` (no lease given: the client's default lease, renewed). */
  hold(client: EdgelockClient, name: string): Promise<KeptHold>;
  /** Whether another client would be refused now (the hold is live on the server). */
  refusesOthers(client: EdgelockClient, name: string): Promise<boolean>;
  /** Whether the resource is free again (after the release). */
  isFree(client: EdgelockClient, name: string): Promise<boolean>;
}

const group = (name: string) => [`{${name}}:a`, `{${name}}:b`];

const KINDS: readonly Kind[] = [
  {
    label: "FairLock",
    hold: (c, n) => c.fairLock(n).acquire(),
    refusesOthers: async (c, n) => (await c.fairLock(n).tryAcquire()) === null,
    isFree: async (c, n) => !(await c.fairLock(n).isLocked()),
  },
  {
    label: "ReadWriteLock read side",
    hold: (c, n) => c.readWriteLock(n).read.acquire(),
    refusesOthers: async (c, n) => (await c.readWriteLock(n).write.tryAcquire()) === null,
    isFree: async (c, n) => !(await c.readWriteLock(n).read.isLocked()),
  },
  {
    label: "ReadWriteLock write side",
    hold: (c, n) => c.readWriteLock(n).write.acquire(),
    refusesOthers: async (c, n) => (await c.readWriteLock(n).write.tryAcquire()) === null,
    isFree: async (c, n) => !(await c.readWriteLock(n).write.isLocked()),
  },
  {
    label: "PermitExpirableSemaphore",
    hold: async (c, n) => {
      const s = c.permitExpirableSemaphore(n);
      await s.trySetPermits(1);
      return s.acquire();
    },
    refusesOthers: async (c, n) =>
      (await c.permitExpirableSemaphore(n).tryAcquire({ leaseMs: 1_000 })) === null,
    isFree: async (c, n) => (await c.permitExpirableSemaphore(n).status()).live === 0,
  },
  {
    label: "MultiLock",
    hold: (c, n) => c.multiLock(group(n)).acquire(),
    refusesOthers: async (c, n) => (await c.lock(group(n)[0]!).tryAcquire()) === null,
    isFree: async (c, n) => {
      for (const name of group(n)) if (await c.lock(name).isLocked()) return false;
      return true;
    },
  },
];

describe(`Keeper interval regressions (issue 13, finding 7): ${WORKERD_TARGET}`, () => {
  for (const kind of KINDS) {
    it(`${kind.label}: a kept-alive hold extended to a shorter lease is renewed at a third of it`, async () => {
      const { client } = makeTestClient(workerdRedis(), { prefix: keyPrefix(), leaseMs: 6_000 });
      const held = await kind.hold(client, "f7");
      await held.extend(600);
      await delay(1_500);
      expect(held.signal.aborted).toBe(false);
      expect(await kind.refusesOthers(client, "f7")).toBe(true);
      await held.release();
      expect(await kind.isFree(client, "f7")).toBe(true);
    });
  }
});
