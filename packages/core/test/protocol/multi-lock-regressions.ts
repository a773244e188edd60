import { keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import {
  BackendError,
  LockError,
  OutcomeUnknownError,
  resolveBackend,
  type Backend,
  type ClientOptions,
  type EdgelockClient,
} from "../../src/index.ts";
import { settleScript } from "../../src/engine/scripts.generated.ts";
import { acquireScript, extendScript } from "../../src/multi-lock/scripts.generated.ts";
import { delay, makeTestClient } from "../support.ts";
import { lateCopyBackend, runs } from "./late-copy-backend.ts";
import type { RegressionTarget } from "./lock-regressions.ts";

/** Counts the requests running `script` that are in flight at once (the most ever seen). */
function inFlight(inner: Backend, script: { sha: string; source: string }) {
  let now = 0;
  const seen = { most: 0 };
  const backend: Backend = {
    ...inner,
    async command(args, signal) {
      if (args[1] !== script.sha && args[1] !== script.source) return inner.command(args, signal);
      seen.most = Math.max(seen.most, ++now);
      try {
        return await inner.command(args, signal);
      } finally {
        now--;
      }
    },
  };
  return { backend, seen };
}

/** Polls `ready` every 5 ms; fails the test instead of hanging. */
async function until(ready: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > end) throw new Error(`condition not reached within ${ms} ms`);
    await delay(5);
  }
}

const isSettle = (args: readonly (string | number)[]) =>
  args[1] === settleScript.sha || args[1] === settleScript.source;

/** The shortest lease the server has left on any of `names`. */
const serverLeftMs = async (client: EdgelockClient, names: readonly string[]) =>
  Math.min(...(await Promise.all(names.map((n) => client.lock(n).remainingMs()))));

/**
 * Issue 13's findings 1 and 2 on a MultiLock slot group (several names under one hash tag, one
 * script for all of them), as reproduced against c6a5b43 (where these fail). The late copies come
 * from a backend wrapper, so REST and TCP see the same reordering.
 */
export function runMultiLockRegressions(target: RegressionTarget): void {
  describe(`MultiLock protocol regressions (issue 13): ${target.name}`, () => {
    const make = async (options: Omit<ClientOptions, "redis"> = {}) => {
      const late = lateCopyBackend(resolveBackend(await target.makeRedis()));
      const renewals = inFlight(late.backend, extendScript);
      const t = makeTestClient(renewals.backend, { prefix: keyPrefix(), ...options });
      return { ...t, late, renewals: renewals.seen };
    };
    const names = ["{acct}:a", "{acct}:b", "{acct}:c"];
    /** The shortest lease any name has left at the server. */
    const serverLeft = async (client: ReturnType<typeof makeTestClient>["client"]) =>
      Math.min(...(await Promise.all(names.map((n) => client.lock(n).remainingMs()))));

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

    it("renewals are serialised: an extend waits for the keeper's renewal in flight, whose late answer never outlasts the extend", async () => {
      // default lease 6 s, so the keeper renews every 2 s
      const { client, late, renewals } = await make({ leaseMs: 6_000 });
      const held = await client.multiLock(names).acquire();
      await held.extend(6_000); // loads the script, so the keeper's EVALSHA below runs at once
      // the keeper's renewal runs at once, but its answer comes back 600 ms late
      late.on(runs(extendScript, 6_000), { kind: "delay-reply", ms: 600 });
      await until(() => late.matched === 1);
      await held.extend(3_000);
      await delay(700); // the keeper's late answer has arrived
      const serverMs = await serverLeftMs(client, names);
      expect(held.toJSON().expiresAt - Date.now()).toBeLessThanOrEqual(serverMs + 50);
      expect(serverMs).toBeGreaterThan(1_500);
      expect(renewals.most).toBe(1);
      expect(held.signal.aborted).toBe(false);
      await held.release();
      for (const name of names) expect(await client.lock(name).isLocked(), name).toBe(false);
    });

    it("a shorter extend whose outcome is unknown, racing the keeper, bounds the local deadline until a later renewal is confirmed", async () => {
      const timing = { leaseMs: 6_000, requestTimeoutMs: 150, retryWindowMs: 400 };
      const { client, late, renewals } = await make(timing);
      const held = await client.multiLock(names).acquire();
      await held.extend(6_000); // loads the script, so the keeper's EVALSHA below runs at once
      late.on(runs(extendScript, 6_000), { kind: "delay-reply", ms: 600 });
      await until(() => late.matched === 1);
      // the extend races the keeper's renewal; every copy of it, and its settle, is held back
      late.on(runs(extendScript, 3_000), { kind: "hold" }, 1_000);
      late.on(isSettle, { kind: "hold" }, 1_000);
      const error = await held.extend(3_000).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OutcomeUnknownError);
      // it may have set 3 s: the holder believes no more, though the keeper's renewal confirmed 6 s
      expect(held.toJSON().expiresAt - Date.now()).toBeLessThanOrEqual(3_000 + 50);
      expect(renewals.most).toBe(1);
      // the keeper's next renewal (a newer version) is confirmed: the doubt is over...
      late.clear();
      const before = late.heldCount;
      await until(() => held.toJSON().expiresAt - Date.now() > 4_000, 5_000);
      // ...and the late copies of the extend find a newer version: they shorten nothing
      expect(before).toBeGreaterThanOrEqual(1);
      await late.deliver();
      const serverMs = await serverLeftMs(client, names);
      expect(serverMs).toBeGreaterThan(4_000);
      expect(held.toJSON().expiresAt - Date.now()).toBeLessThanOrEqual(serverMs + 50);
      expect(held.signal.aborted).toBe(false);
      await held.release();
      for (const name of names) expect(await client.lock(name).isLocked(), name).toBe(false);
    });

    it("finding 7: a kept-alive multi-lock extended to a shorter lease is renewed at a third of it", async () => {
      const { client } = await make({ leaseMs: 6_000 });
      const held = await client.multiLock(names).acquire();
      await held.extend(600);
      await delay(1_500);
      expect(held.signal.aborted).toBe(false);
      expect(await client.lock(names[0]!).tryAcquire()).toBeNull();
      await held.release();
      for (const name of names) expect(await client.lock(name).isLocked(), name).toBe(false);
    });

    it("a keeper renewal answered while a shorter extend is in flight never restores the longer deadline (adversarial campaign)", async () => {
      // Without one renewal in flight per hold, the keeper's confirmation cleared the extend's
      // doubt, and the holder believed the keeper's lease while the server had the extend's.
      const replies = replyGate(resolveBackend(await target.makeRedis()));
      const { client } = makeTestClient(replies.backend, {
        prefix: keyPrefix(),
        leaseMs: 3_000,
        requestTimeoutMs: 2_000,
        retryWindowMs: 4_000,
      });
      const held = await client.multiLock(names).acquire(); // kept alive: renewed every 1 s
      const keeper = replies.holdNext(runs(extendScript, 3_000));
      await keeper.ran; // the keeper's renewal applied at the server; its reply is held back
      // The extend's copy that applies (a stale answer first, without one renewal in flight).
      const extension = replies.holdNext(
        runs(extendScript, 500),
        (reply) => Array.isArray(reply) && Number(reply[0]) === 1,
      );
      const extending = held.extend(500);
      await delay(150);
      keeper.answer();
      await extension.ran; // the extend applied; its reply is held back
      const left = await serverLeft(client);
      expect(left).toBeLessThanOrEqual(500);
      // what the holder believes never outlasts what the server has
      expect(held.toJSON().expiresAt - Date.now()).toBeLessThanOrEqual(left + 50);
      extension.answer();
      await extending;
      await held.release();
    });

    it("finding 7 on a multi-lock: a kept-alive hold extended to a shorter lease is renewed at a third of it", async () => {
      const { client } = await make({ leaseMs: 3_000 });
      const held = await client.multiLock(names).acquire(); // kept alive: renewed every 1 s
      await held.extend(600);
      await delay(2_000);
      expect(held.signal.aborted).toBe(false);
      for (const name of names) expect(await client.lock(name).isLocked(), name).toBe(true);
      await held.release();
      for (const name of names) expect(await client.lock(name).isLocked(), name).toBe(false);
    });

    it("a resumed multi-lock is not trusted beyond the server's lease from another machine's clock (adversarial campaign)", async () => {
      const { client } = await make({ clockErrorMs: 1_000 });
      const held = await client.multiLock(names).acquire({ leaseMs: 10_000 });
      // Serialized on a machine whose wall clock runs 1.5 s fast (within 2 × clockErrorMs of ours).
      const lease = { ...held.toJSON(), expiresAt: held.toJSON().expiresAt + 1_500 };
      const resumed = client.multiLock(names).resume(lease);
      const left = await serverLeft(client);
      expect(resumed.toJSON().expiresAt - Date.now()).toBeLessThanOrEqual(left + 50);
      await resumed.extend(5_000); // a confirmed renewal: trusted from here
      await resumed.extend(5_000); // and again
      expect(resumed.signal.aborted).toBe(false);
      expect(resumed.toJSON().expiresAt - Date.now()).toBeLessThanOrEqual(
        (await serverLeft(client)) + 50,
      );
      await resumed.release();
      for (const name of names) expect(await client.lock(name).isLocked(), name).toBe(false);
    });
  });
}

/**
 * A backend whose chosen requests run at once while their replies wait for `answer()`: a reply
 * slow on its way back, so that another request of the same client can run in between.
 */
export function replyGate(inner: Backend) {
  type Rule = {
    match: (args: readonly (string | number)[]) => boolean;
    when: (reply: unknown) => boolean;
    gate: Gate;
  };
  const rules: Rule[] = [];
  const backend: Backend = {
    kind: inner.kind,
    ...(inner.subscribe ? { subscribe: inner.subscribe.bind(inner) } : {}),
    async command(args, signal) {
      const rule = rules.find((r) => r.match(args));
      if (rule === undefined) return inner.command(args, signal);
      const reply = await inner.command(args, new AbortController().signal);
      if (!rule.when(reply) || !rules.includes(rule)) return reply;
      rules.splice(rules.indexOf(rule), 1);
      const { gate } = rule;
      gate.ranNow();
      await gate.answered;
      return reply;
    },
  };
  return {
    backend,
    /**
     * The next request that matches and whose reply passes `when`: `ran` once it ran at the
     * server; its reply waits for `answer()`. Other matching requests pass through.
     */
    holdNext(
      match: (args: readonly (string | number)[]) => boolean,
      when: (reply: unknown) => boolean = () => true,
    ): Gate {
      const gate = newGate();
      rules.push({ match, when, gate });
      return gate;
    },
  };
}

interface Gate {
  readonly ran: Promise<void>;
  readonly answered: Promise<void>;
  ranNow(): void;
  answer(): void;
}

function newGate(): Gate {
  let ranNow!: () => void;
  let answer!: () => void;
  const ran = new Promise<void>((r) => (ranNow = r));
  const answered = new Promise<void>((r) => (answer = r));
  return { ran, answered, ranNow, answer };
}
