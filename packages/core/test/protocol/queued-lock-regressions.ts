import { keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import {
  BackendError,
  LockError,
  resolveBackend,
  type ClientOptions,
  type EdgelockClient,
  type HeldLock,
} from "../../src/index.ts";
import * as fair from "../../src/fair-lock/scripts.generated.ts";
import * as rw from "../../src/read-write-lock/scripts.generated.ts";
import { delay, makeTestClient } from "../support.ts";
import { lateCopyBackend, runs } from "./late-copy-backend.ts";
import type { RegressionTarget } from "./lock-regressions.ts";

/** What the regressions need of one side of a lock-shaped primitive. */
interface Side {
  acquire(options?: { waitMs?: number; leaseMs?: number }): Promise<HeldLock>;
  tryAcquire(options?: { waitMs?: number; leaseMs?: number }): Promise<HeldLock | null>;
  isLocked(): Promise<boolean>;
  holdCount(): Promise<number>;
  remainingMs(): Promise<number>;
}

type Script = { sha: string; source: string };

/** A lock-shaped primitive (one side of it), with the scripts its acquire and renewal run. */
export interface QueuedPrimitive {
  readonly label: string;
  handle(client: EdgelockClient, name: string, owner?: string): Side;
  /** A handle of another owner that a hold of `handle` excludes (and whose hold excludes it). */
  rival(client: EdgelockClient, name: string): Side;
  readonly acquireScript: Script;
  readonly extendScript: Script;
}

const withOwner = (owner: string | undefined) => (owner === undefined ? {} : { owner });

export const QUEUED_PRIMITIVES: readonly QueuedPrimitive[] = [
  {
    label: "FairLock",
    handle: (client, name, owner) => client.fairLock(name, withOwner(owner)),
    rival: (client, name) => client.fairLock(name),
    acquireScript: fair.acquireScript,
    extendScript: fair.extendScript,
  },
  {
    label: "ReadWriteLock read side",
    handle: (client, name, owner) => client.readWriteLock(name, withOwner(owner)).read,
    rival: (client, name) => client.readWriteLock(name).write,
    acquireScript: rw.acquireReadScript,
    extendScript: rw.extendReadScript,
  },
  {
    label: "ReadWriteLock write side",
    handle: (client, name, owner) => client.readWriteLock(name, withOwner(owner)).write,
    rival: (client, name) => client.readWriteLock(name).write,
    acquireScript: rw.acquireWriteScript,
    // the writer's hash has the fair lock's layout: it renews with the fair lock's extend
    extendScript: fair.extendScript,
  },
];

/** Polls `ready` every 5 ms; fails the test instead of hanging. */
async function until(ready: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > end) throw new Error(`condition not reached within ${ms} ms`);
    await delay(5);
  }
}

/**
 * Issue 13's findings 1 and 2 on the FairLock and both sides of the ReadWriteLock, in the shapes
 * of the Lock's regressions (lock-regressions.ts): the late copies come from a backend wrapper,
 * so REST and TCP see the same reordering. Each fails on c6a5b43.
 */
export function runQueuedLockRegressions(target: RegressionTarget, p: QueuedPrimitive): void {
  describe(`${p.label} protocol regressions (issue 13): ${target.name}`, () => {
    const make = async (options: Omit<ClientOptions, "redis"> = {}) => {
      const late = lateCopyBackend(resolveBackend(await target.makeRedis()));
      const t = makeTestClient(late.backend, { prefix: keyPrefix(), ...options });
      return { ...t, late };
    };

    it("finding 1: a late copy of a busy try-once acquire never grants after the caller moved on", async () => {
      const { client, late } = await make({ requestTimeoutMs: 200 });
      const holder = await p.rival(client, "f1").acquire({ leaseMs: 10_000 });
      const owner = "late-owner-of-f1-try";
      const handle = p.handle(client, "f1", owner);
      late.on(runs(p.acquireScript, owner), { kind: "hold" });
      // Not acquired either way: busy (a resend answered), or settled as never applied.
      const outcome = await handle.tryAcquire().catch((e: unknown) => e);
      expect(outcome === null || outcome instanceof BackendError, String(outcome)).toBe(true);
      await holder.release();
      expect(late.heldCount).toBe(1);
      await late.deliver();
      expect(await handle.isLocked()).toBe(false);
      expect(await handle.holdCount()).toBe(0);
      const next = await handle.acquire();
      expect(await handle.holdCount()).toBe(1);
      await next.release();
      expect(await handle.isLocked()).toBe(false);
    });

    it("finding 1: a late copy of a busy poll never grants after the waiter went on under new ids", async () => {
      const { client, late } = await make({ requestTimeoutMs: 200 });
      const holder = await p.rival(client, "f1w").acquire({ leaseMs: 10_000 });
      const owner = "late-owner-of-f1-wait";
      const handle = p.handle(client, "f1w", owner);
      late.on(runs(p.acquireScript, owner), { kind: "hold" });
      const waiting = handle.acquire({ waitMs: 5_000, leaseMs: 10_000 });
      await until(() => late.heldCount === 1);
      await delay(400); // the held poll has timed out; a resend answered busy
      await holder.release();
      const held = await waiting;
      await held.release();
      expect(await handle.isLocked()).toBe(false);
      await late.deliver();
      expect(await handle.isLocked()).toBe(false);
      expect(await handle.holdCount()).toBe(0);
    });

    it("finding 2: a late copy of an extend that ended in doubt never shortens a later, longer one", async () => {
      const { client, late } = await make({ requestTimeoutMs: 150, retryWindowMs: 400 });
      const held = await p.handle(client, "f2").acquire({ leaseMs: 10_000 });
      late.on(runs(p.extendScript, 2_000), { kind: "hold" }, 1_000);
      await expect(held.extend(2_000)).rejects.toBeInstanceOf(LockError);
      late.clear();
      await held.extend(20_000);
      expect(late.heldCount).toBeGreaterThanOrEqual(1);
      await late.deliver();
      const serverMs = await p.handle(client, "f2").remainingMs();
      expect(serverMs).toBeGreaterThan(15_000);
      // what the holder believes never outlasts what the server has
      expect(held.toJSON().expiresAt - Date.now()).toBeLessThanOrEqual(serverMs + 50);
      await delay(2_500);
      expect(await p.rival(client, "f2").tryAcquire()).toBeNull();
      expect(held.signal.aborted).toBe(false);
      await held.release();
    });

    it("finding 2 (keeper): a keeper renewal in doubt never undoes a later, longer extend", async () => {
      const { client, late } = await make({
        leaseMs: 1_500,
        requestTimeoutMs: 150,
        retryWindowMs: 300,
      });
      const held = await p.handle(client, "f2k").acquire();
      late.on(runs(p.extendScript, 1_500), { kind: "hold" }, 1_000);
      await until(() => late.heldCount >= 1);
      await held.extend(20_000);
      late.clear();
      await late.deliver();
      const serverMs = await p.handle(client, "f2k").remainingMs();
      expect(serverMs).toBeGreaterThan(15_000);
      expect(held.toJSON().expiresAt - Date.now()).toBeLessThanOrEqual(serverMs + 50);
      expect(held.signal.aborted).toBe(false);
      await held.release();
    });
  });
}
