import { keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import { BackendError, LockError, resolveBackend, type ClientOptions } from "../../src/index.ts";
import { acquireScript, extendScript } from "../../src/multi-lock/scripts.generated.ts";
import { delay, makeTestClient } from "../support.ts";
import { lateCopyBackend, runs } from "./late-copy-backend.ts";
import type { RegressionTarget } from "./lock-regressions.ts";

/**
 * Issue 13's findings 1 and 2 on a MultiLock slot group (several names under one hash tag, one
 * script for all of them), as reproduced against c6a5b43 (where these fail). The late copies come
 * from a backend wrapper, so REST and TCP see the same reordering.
 */
export function runMultiLockRegressions(target: RegressionTarget): void {
  describe(`MultiLock protocol regressions (issue 13): ${target.name}`, () => {
    const make = async (options: Omit<ClientOptions, "redis"> = {}) => {
      const late = lateCopyBackend(resolveBackend(await target.makeRedis()));
      const t = makeTestClient(late.backend, { prefix: keyPrefix(), ...options });
      return { ...t, late };
    };
    const names = ["{acct}:a", "{acct}:b", "{acct}:c"];

    it("finding 1: a late copy of a busy try-once acquire never grants after the caller moved on", async () => {
      const { client, late } = await make({ requestTimeoutMs: 200 });
      const holder = await client.lock(names[1]!).acquire({ leaseMs: 10_000 });
      const owner = "late-owner-of-a-multi-lock";
      const multi = client.multiLock(names, { owner });
      expect(multi.slotGroups).toBe(1);
      late.on(runs(acquireScript, owner), { kind: "hold" });
      // Not acquired either way: busy (a resend answered), or settled as never applied.
      const outcome = await multi.tryAcquire().catch((e: unknown) => e);
      expect(outcome === null || outcome instanceof BackendError, String(outcome)).toBe(true);
      await holder.release();
      expect(late.heldCount).toBe(1);
      await late.deliver();
      await delay(50); // a background rollback, if any, has run
      for (const name of names) expect(await client.lock(name).isLocked(), name).toBe(false);
      const held = await multi.acquire();
      await held.release();
      for (const name of names) expect(await client.lock(name).isLocked(), name).toBe(false);
    });

    it("finding 2: a late copy of an extend that ended in doubt never shortens a later, longer one", async () => {
      const { client, late } = await make({ requestTimeoutMs: 150, retryWindowMs: 400 });
      const held = await client.multiLock(names).acquire({ leaseMs: 10_000 });
      late.on(runs(extendScript, 2_000), { kind: "hold" }, 1_000);
      await expect(held.extend(2_000)).rejects.toBeInstanceOf(LockError);
      late.clear();
      await held.extend(20_000);
      expect(late.heldCount).toBeGreaterThanOrEqual(1);
      await late.deliver();
      for (const name of names) {
        const serverMs = await client.lock(name).remainingMs();
        expect(serverMs, name).toBeGreaterThan(15_000);
        // what the holder believes never outlasts what the server has
        expect(held.toJSON().expiresAt - Date.now()).toBeLessThanOrEqual(serverMs + 50);
      }
      await delay(2_500);
      expect(await client.lock(names[0]!).tryAcquire()).toBeNull();
      expect(held.signal.aborted).toBe(false);
      await held.release();
      for (const name of names) expect(await client.lock(name).isLocked(), name).toBe(false);
    });
  });
}
