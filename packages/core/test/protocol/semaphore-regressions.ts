import { keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import {
  BackendError,
  LockError,
  NotHeldError,
  OutcomeUnknownError,
  resolveBackend,
  type ClientOptions,
  type WaitStrategy,
} from "../../src/index.ts";
import { permitSemaphoreKeys } from "../../src/keys.ts";
import { settleScript } from "../../src/engine/scripts.generated.ts";
import * as pes from "../../src/permit-semaphore/scripts.generated.ts";
import * as sem from "../../src/semaphore/scripts.generated.ts";
import { delay, makeTestClient } from "../support.ts";
import { lateCopyBackend, runs } from "./late-copy-backend.ts";
import type { RegressionTarget } from "./lock-regressions.ts";

/** Polls `ready` every 5 ms; fails the test instead of hanging. */
async function until(ready: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ready())) {
    if (Date.now() > end) throw new Error(`condition not reached within ${ms} ms`);
    await delay(5);
  }
}

/** What the server has left of a permit's lease (ms), read straight from its zset. */
export async function serverLeftMs(
  redis: unknown,
  prefix: string,
  name: string,
  permitId: string,
): Promise<number> {
  const backend = resolveBackend(redis as Parameters<typeof resolveBackend>[0]);
  const signal = new AbortController().signal;
  const key = permitSemaphoreKeys(prefix, name).permits;
  const expiry = Number(await backend.command(["ZSCORE", key, permitId], signal));
  const [s, us] = (await backend.command(["TIME"], signal)) as [string, string];
  return expiry - (Number(s) * 1000 + Math.floor(Number(us) / 1000));
}

/**
 * A waiter that sleeps a whole second between polls unless the wait loop tells it the claim
 * window (as the default strategy honours it): finding 8 is the loop not passing it on.
 */
const SLOW: WaitStrategy = {
  name: "slow-unless-told",
  maxDelayMs: 1_000,
  nextDelay: (h) => Math.min(1_000, Math.max(1, (h.claimWindowMs ?? Infinity) - 100)),
};

/**
 * A user's strategy that knows nothing of claim windows (as `backoffStrategy()` at its 1 s
 * longest): the wait loop itself must keep a queued waiter's sleeps inside the claim window.
 */
const FIXED_1S: WaitStrategy = { name: "fixed-1s", maxDelayMs: 1_000, nextDelay: () => 1_000 };

/**
 * Issue 13's findings 1, 2 and 8 on the Semaphore and the PermitExpirableSemaphore, in the shapes
 * of the Lock's regressions: the late copies come from a backend wrapper, so REST and TCP see the
 * same reordering. Each fails on c6a5b43.
 */
export function runSemaphoreRegressions(target: RegressionTarget): void {
  describe(`Semaphore and PermitExpirableSemaphore protocol regressions (issue 13): ${target.name}`, () => {
    const make = async (options: Omit<ClientOptions, "redis"> = {}) => {
      const late = lateCopyBackend(resolveBackend(await target.makeRedis()));
      const t = makeTestClient(late.backend, { prefix: keyPrefix(), ...options });
      return { ...t, late };
    };

    it("finding 1 (Semaphore): a late copy of a busy tryAcquire never takes permits later", async () => {
      const { client, late } = await make({ requestTimeoutMs: 200 });
      const s = client.semaphore("f1");
      await s.trySetPermits(5);
      const holder = await s.acquire({ permits: 3 });
      // 3 of the 5 are taken: a try for 3 is busy. Its first copy runs only later.
      late.on(runs(sem.acquireScript, 3, 0), { kind: "hold" });
      const outcome = await s.tryAcquire({ permits: 3 }).catch((e: unknown) => e);
      expect(outcome === null || outcome instanceof BackendError, String(outcome)).toBe(true);
      await holder.release();
      expect(late.heldCount).toBe(1);
      await late.deliver();
      // quiescence: every permit is back
      expect(await s.availablePermits()).toBe(5);
    });

    it("finding 1 (Semaphore): a late copy of a busy poll never takes permits after the waiter went on", async () => {
      const { client, late } = await make({ requestTimeoutMs: 200 });
      const s = client.semaphore("f1w");
      await s.trySetPermits(5);
      const holder = await s.acquire({ permits: 3 });
      late.on(runs(sem.acquireScript, 3, 1), { kind: "hold" });
      const waiting = s.acquire({ permits: 3, waitMs: 5_000 });
      await until(() => late.heldCount === 1);
      await delay(400); // the held poll has timed out; a resend answered busy
      await holder.release();
      await (await waiting).release();
      expect(await s.availablePermits()).toBe(5);
      await late.deliver();
      expect(await s.availablePermits()).toBe(5);
      expect(await s.status()).toMatchObject({ available: 5, total: 5, waiters: 0 });
    });

    it("finding 1 (PermitExpirableSemaphore): a late copy of a busy tryAcquire never takes a permit later", async () => {
      const { client, late } = await make({ requestTimeoutMs: 200 });
      const s = client.permitExpirableSemaphore("f1p");
      await s.trySetPermits(1);
      const holder = await s.acquire({ leaseMs: 10_000 });
      late.on(runs(pes.acquireScript, 7_777), { kind: "hold" });
      const outcome = await s.tryAcquire({ leaseMs: 7_777 }).catch((e: unknown) => e);
      expect(outcome === null || outcome instanceof BackendError, String(outcome)).toBe(true);
      await holder.release();
      expect(late.heldCount).toBe(1);
      await late.deliver();
      expect(await s.status()).toMatchObject({ available: 1, live: 0 });
    });

    it("finding 1 (PermitExpirableSemaphore): a late copy of a busy poll never takes a permit after the waiter went on", async () => {
      const { client, late } = await make({ requestTimeoutMs: 200 });
      const s = client.permitExpirableSemaphore("f1pw");
      await s.trySetPermits(1);
      const holder = await s.acquire({ leaseMs: 10_000 });
      late.on(runs(pes.acquireScript, 7_777, 1), { kind: "hold" });
      const waiting = s.acquire({ leaseMs: 7_777, waitMs: 5_000 });
      await until(() => late.heldCount === 1);
      await delay(400);
      await holder.release();
      await (await waiting).release();
      await late.deliver();
      expect(await s.status()).toMatchObject({ available: 1, live: 0, waiters: 0 });
    });

    it("finding 2 (PermitExpirableSemaphore): a late copy of an extend in doubt never shortens a later, longer one", async () => {
      const prefix = keyPrefix();
      const { client, late } = await make({ prefix, requestTimeoutMs: 150, retryWindowMs: 400 });
      const s = client.permitExpirableSemaphore("f2");
      await s.trySetPermits(1);
      const permit = await s.acquire({ leaseMs: 10_000 });
      late.on(runs(pes.extendScript, 2_000), { kind: "hold" }, 1_000);
      await expect(permit.extend(2_000)).rejects.toBeInstanceOf(LockError);
      late.clear();
      await permit.extend(20_000);
      expect(late.heldCount).toBeGreaterThanOrEqual(1);
      await late.deliver();
      const serverMs = await serverLeftMs(await target.makeRedis(), prefix, "f2", permit.id);
      expect(serverMs).toBeGreaterThan(15_000);
      // what the holder believes never outlasts what the server has
      expect(permit.toJSON().expiresAt - Date.now()).toBeLessThanOrEqual(serverMs + 50);
      await delay(2_500);
      // the server still counts the permit live: nobody else gets it
      expect(await s.status()).toMatchObject({ live: 1, available: 0 });
      expect(await s.tryAcquire({ leaseMs: 1_000 })).toBeNull();
      expect(permit.signal.aborted).toBe(false);
      await permit.release();
    });

    it("finding 2 (PermitExpirableSemaphore, keeper): a keeper renewal in doubt never undoes a later, longer extend", async () => {
      const prefix = keyPrefix();
      const { client, late } = await make({
        prefix,
        leaseMs: 1_500,
        requestTimeoutMs: 150,
        retryWindowMs: 300,
      });
      const s = client.permitExpirableSemaphore("f2k");
      await s.trySetPermits(1);
      const permit = await s.acquire();
      late.on(runs(pes.extendScript, 1_500), { kind: "hold" }, 1_000);
      await until(() => late.heldCount >= 1);
      await permit.extend(20_000);
      late.clear();
      await late.deliver();
      const serverMs = await serverLeftMs(await target.makeRedis(), prefix, "f2k", permit.id);
      expect(serverMs).toBeGreaterThan(15_000);
      expect(permit.toJSON().expiresAt - Date.now()).toBeLessThanOrEqual(serverMs + 50);
      await delay(2_000);
      expect(await s.status()).toMatchObject({ live: 1, available: 0 });
      expect(permit.signal.aborted).toBe(false);
      await permit.release();
    });

    it("finding 7 (PermitExpirableSemaphore): a kept-alive permit extended to a shorter lease is renewed at a third of it", async () => {
      const { client } = await make({ leaseMs: 6_000 });
      const s = client.permitExpirableSemaphore("f7");
      await s.trySetPermits(1);
      const permit = await s.acquire();
      await permit.extend(600);
      await delay(1_500);
      expect(permit.signal.aborted).toBe(false);
      expect(await s.status()).toMatchObject({ live: 1, available: 0 });
      await permit.release();
      expect(await s.availablePermits()).toBe(1);
    });

    it("a Semaphore release settled as never applied can be repeated, and still applies once", async () => {
      const prefix = keyPrefix();
      const { client, late } = await make({ prefix, requestTimeoutMs: 150, retryWindowMs: 400 });
      const other = makeTestClient(await target.makeRedis(), { prefix });
      const s = client.semaphore("tomb");
      // The setup goes through a client at default timeouts: 150 ms is for the release alone,
      // and a loaded machine can take longer over the first acquire (CI failed on it once).
      const setup = other.client.semaphore("tomb");
      await setup.trySetPermits(5);
      const hold = s.resume((await setup.acquire({ permits: 2 })).toJSON());
      // Another hold stays out, so a release applied twice would show (4 → 6 is refused, 3 → 5 is not).
      const bystander = await setup.acquire({ permits: 1 });
      const before = hold.toJSON();
      // Every copy of the release held back: its retries run out and settle tombstones its id.
      late.on(runs(sem.releaseScript, 2), { kind: "hold" }, 1_000);
      const outcome = await hold.release().catch((e: unknown) => e);
      expect(outcome, String(outcome)).toBeInstanceOf(BackendError);
      late.clear();
      expect(late.heldCount).toBeGreaterThanOrEqual(1);
      await late.deliver();
      expect(await s.availablePermits()).toBe(2);
      // The next attempt goes under a new id (serialised too); the tombstoned one would answer
      // TOMBSTONED until the tombstone expires, and the permits would stay taken.
      const after = hold.toJSON();
      expect(after.releaseOp).not.toBe(before.releaseOp);
      await other.client.semaphore("tomb").resume(after).release();
      expect(await s.availablePermits()).toBe(4);
      // The holder repeats its release: same id, the recorded answer, nothing applied twice.
      await hold.release();
      expect(await s.availablePermits()).toBe(4);
      await expect(hold.release()).rejects.toBeInstanceOf(NotHeldError);
      // A copy serialised before the refusal learns it too and moves to the same next id.
      const stale = other.client.semaphore("tomb").resume(before);
      await expect(stale.release()).rejects.toBeInstanceOf(BackendError);
      await stale.release();
      expect(await s.availablePermits()).toBe(4);
      await bystander.release();
      expect(await s.status()).toMatchObject({ available: 5, total: 5 });
    });

    it("a Semaphore release whose outcome stays unknown keeps its id for the repeat", async () => {
      const prefix = keyPrefix();
      const { client, late } = await make({ prefix, requestTimeoutMs: 150, retryWindowMs: 400 });
      const s = client.semaphore("unknown");
      // Set up at default timeouts, as above: 150 ms is for the release alone.
      const setup = makeTestClient(await target.makeRedis(), { prefix }).client.semaphore(
        "unknown",
      );
      await setup.trySetPermits(5);
      const hold = s.resume((await setup.acquire({ permits: 2 })).toJSON());
      const bystander = await setup.acquire({ permits: 1 });
      const id = hold.toJSON().releaseOp;
      late.on(runs(sem.releaseScript, 2), { kind: "hold" }, 1_000);
      late.on(runs(settleScript), { kind: "hold" }, 1_000);
      const outcome = await hold.release().catch((e: unknown) => e);
      expect(outcome, String(outcome)).toBeInstanceOf(OutcomeUnknownError);
      // A copy may have applied: only the same id keeps the repeat from applying twice.
      expect(hold.toJSON().releaseOp).toBe(id);
      late.clear();
      // The lost settle ran after all and tombstoned the id: the repeat learns it did not apply,
      // and only then does the hold move on to a new id, which applies once.
      await late.deliver();
      expect(await s.availablePermits()).toBe(2);
      await expect(hold.release()).rejects.toBeInstanceOf(BackendError);
      expect(hold.toJSON().releaseOp).not.toBe(id);
      await hold.release();
      expect(await s.availablePermits()).toBe(4);
      await bystander.release();
      expect(await s.availablePermits()).toBe(5);
    });

    it("a Semaphore release repeated after its record could have expired is refused, never applied twice", async () => {
      // Record margin: 2 × 100 + 2 × 50 + 1 000 = 1.3 s past the release's deadline.
      const timings = { requestTimeoutMs: 100, retryWindowMs: 300, clockErrorMs: 50 };
      const prefix = keyPrefix();
      const { client, late } = await make({ prefix, ...timings });
      const other = makeTestClient(await target.makeRedis(), { prefix, ...timings });
      const s = client.semaphore("anchor");
      await s.trySetPermits(10);
      const hold = await s.acquire({ permits: 2 });
      // Others stay out, so a release applied twice would show (5 → 7 → 9, all within 10).
      const bystander = await s.acquire({ permits: 3 });
      // The release script loaded (EVALSHA runs at once, no NOSCRIPT round), then: the first
      // copy applies and its response is lost; every resend and the settle are lost.
      await (await s.acquire({ permits: 1 })).release();
      late.on(runs(sem.releaseScript, 2), { kind: "drop-after" });
      late.on(runs(sem.releaseScript, 2), { kind: "hold" }, 1_000);
      late.on(runs(settleScript), { kind: "hold" }, 1_000);
      await expect(hold.release()).rejects.toBeInstanceOf(OutcomeUnknownError);
      late.clear();
      expect(await s.availablePermits()).toBe(7);
      // The release's record has surely expired: its id alone can no longer tell a repeat apart.
      await delay(2_000);
      await expect(hold.release()).rejects.toBeInstanceOf(OutcomeUnknownError);
      expect(await s.availablePermits()).toBe(7);
      // The same from another invocation, through toJSON (which carries the anchor).
      const json = hold.toJSON();
      expect(json.releaseAnchor).toBeGreaterThan(0);
      const resumed = other.client.semaphore("anchor").resume(json);
      await expect(resumed.release()).rejects.toBeInstanceOf(OutcomeUnknownError);
      await late.deliver();
      expect(await s.availablePermits()).toBe(7);
      await bystander.release();
      expect(await s.availablePermits()).toBe(10);
    });

    for (const [kind, strategy] of [
      ["Semaphore", SLOW],
      ["PermitExpirableSemaphore", SLOW],
      ["Semaphore", FIXED_1S],
      ["PermitExpirableSemaphore", FIXED_1S],
    ] as const) {
      it(`finding 8 (${kind}, ${strategy.name} strategy): the head claims its grant inside the claim window; a later waiter never overtakes it`, async () => {
        // three clients (so each one's events are its own) on one prefix: one semaphore
        const prefix = keyPrefix();
        const options = { prefix, claimWindowMs: 300, wait: strategy };
        const [ta, tb, tc] = await Promise.all(
          [0, 1, 2].map(async () => makeTestClient(await target.makeRedis(), options)),
        );
        const handle = (t: ReturnType<typeof makeTestClient>) => {
          if (kind === "Semaphore") {
            const s = t.client.semaphore("f8");
            return {
              set: () => s.trySetPermits(1),
              waiters: async () => (await s.status()).waiters,
              acquire: async (waitMs: number) => {
                const h = await s.acquire({ waitMs });
                return () => h.release();
              },
            };
          }
          const s = t.client.permitExpirableSemaphore("f8");
          return {
            set: () => s.trySetPermits(1),
            waiters: async () => (await s.status()).waiters,
            acquire: async (waitMs: number) => {
              const h = await s.acquire({ waitMs, leaseMs: 10_000 });
              return () => h.release();
            },
          };
        };
        const [ha, hb, hc] = [handle(ta!), handle(tb!), handle(tc!)];
        await ha.set();
        const releaseA = await ha.acquire(0);
        const order: string[] = [];
        const gotB = hb.acquire(10_000).then((r) => (order.push("B"), r));
        await until(async () => (await ha.waiters()) === 1);
        const gotC = hc.acquire(10_000).then((r) => (order.push("C"), r));
        await until(async () => (await ha.waiters()) === 2);
        // Release right after the head's poll answered busy: its next poll is a whole sleep away.
        const polls = () => tb!.events.filter((e) => e.type === "waited").length;
        const seen = polls();
        await until(() => polls() > seen);
        await releaseA();
        const first = await Promise.race([gotB, gotC]);
        await first();
        await (
          await (order[0] === "B" ? gotC : gotB)
        )();
        expect(order).toEqual(["B", "C"]);
      });
    }
  });
}
