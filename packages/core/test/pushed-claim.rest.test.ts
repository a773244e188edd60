import { keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import {
  AcquireTimeoutError,
  createClient,
  type Backend,
  type ClientOptions,
  type Keeper,
  type LockEvent,
} from "../src/index.ts";
import { extendScript, releaseScript } from "../src/lock/scripts.generated.ts";
import * as pes from "../src/permit-semaphore/scripts.generated.ts";
import * as sem from "../src/semaphore/scripts.generated.ts";
import { restBackend, tapBackend } from "./rest-backend.ts";

/**
 * A waiter that enters on its pushed grant claims it (one extend) only once its hold outlives
 * a third of the grant: a hold released before sends nothing but its release after the message
 * (wait/pushed-grant.ts, claimDelayMs). Each test fails with the claim sent at once, but the
 * Semaphore's, which fail with its claim deferred.
 */
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The REST backend, push included, counting the scripts it sends: `extends` (the Lock's extend
 * and the permit's, the claims of the Lock and the PermitExpirableSemaphore), and the Semaphore's
 * `acquires` (its claim is one) and `abandons` (what gives an unclaimed grant back).
 */
function countingExtends(inner: Backend) {
  const count = { extends: 0, acquires: 0, abandons: 0 };
  /**
   * Holds back the answer of a release (Lock, permit), or of a Semaphore's acquire, this long
   * after it ran (ms).
   */
  const slow = { releaseAnswerMs: 0, acquireAnswerMs: 0 };
  const is = (args: readonly unknown[], script: { sha: string; source: string }) =>
    args[1] === script.sha || args[1] === script.source;
  const backend = tapBackend(inner, (args, signal) => {
    if (is(args, extendScript) || is(args, pes.extendScript)) count.extends++;
    if (is(args, sem.acquireScript)) count.acquires++;
    if (is(args, sem.abandonScript)) count.abandons++;
    const release = is(args, releaseScript) || is(args, pes.releaseScript);
    const ms = release
      ? slow.releaseAnswerMs
      : is(args, sem.acquireScript)
        ? slow.acquireAnswerMs
        : 0;
    if (ms > 0) return inner.command(args, signal).then((answer) => pause(ms).then(() => answer));
    return inner.command(args, signal);
  });
  return { backend, count, slow };
}

/** A holder's client, and a waiter's that counts its scripts and records its events. */
function twoClients(
  options: Omit<ClientOptions, "redis">,
  waiterOptions: Omit<ClientOptions, "redis"> = {},
) {
  const prefix = keyPrefix();
  const holderClient = createClient({ redis: restBackend(), prefix, ...options });
  const { backend, count, slow } = countingExtends(restBackend());
  const events: LockEvent[] = [];
  const client = createClient({
    redis: backend,
    prefix,
    ...options,
    ...waiterOptions,
    onEvent: (e) => events.push(e),
  });
  return { prefix, holderClient, client, count, slow, events };
}

/**
 * A holder on a fresh name (no hold statistics: the queue's head listens from its first busy
 * answer) and a waiter behind it whose stream is live when the holder releases: the waiter
 * enters on the grant message. Resolves to the waiter's hold, its client's extend count, and its
 * acquire's attempts: 2 when it entered on the message (its first, and one more when its new
 * stream went live, wait-loop.ts), 3 had it learnt of the grant by polling.
 */
async function enteredOnPush(
  name: string,
  options: Omit<ClientOptions, "redis"> = {},
  waiterOptions: Omit<ClientOptions, "redis"> = {},
  acquireOptions: { leaseMs?: number } = { leaseMs: 10_000 },
) {
  const { prefix, holderClient, client, count, slow, events } = twoClients(options, waiterOptions);
  // Redis learns the extend script first, so that one claim is one request (no NOSCRIPT round).
  const warm = await client.lock(`${name}:warm`).acquire();
  await warm.extend(5_000);
  await warm.release();
  count.extends = 0;
  const held = await holderClient.lock(name).acquire({ leaseMs: 10_000 });
  const lock = client.lock(name);
  const waiting = lock.acquire({ ...acquireOptions, waitMs: 10_000 });
  while (!events.some((e) => e.type === "waited")) await pause(2);
  await pause(300); // its stream is live
  await held.release();
  const hold = await waiting;
  const acquired = events.filter((e) => e.type === "acquired").at(-1) as { attempts: number };
  const other = createClient({ redis: restBackend(), prefix, ...options });
  return { hold, lock, count, slow, attempts: acquired.attempts, other: other.lock(name), client };
}

/** `enteredOnPush` for a PermitExpirableSemaphore of one permit. */
async function permitEnteredOnPush(name: string, options: Omit<ClientOptions, "redis"> = {}) {
  const { holderClient, client, count, slow, events } = twoClients(options);
  const warm = client.permitExpirableSemaphore(`${name}:warm`);
  await warm.trySetPermits(1);
  const w = await warm.acquire();
  await w.extend(5_000);
  await w.release();
  count.extends = 0;
  const mine = holderClient.permitExpirableSemaphore(name);
  await mine.trySetPermits(1);
  const held = await mine.acquire({ leaseMs: 10_000 });
  const waiting = client
    .permitExpirableSemaphore(name)
    .acquire({ leaseMs: 10_000, waitMs: 10_000 });
  while (!events.some((e) => e.type === "waited")) await pause(2);
  await pause(300); // its stream is live
  await held.release();
  const permit = await waiting;
  const acquired = events.filter((e) => e.type === "acquired").at(-1) as { attempts: number };
  return { permit, count, slow, attempts: acquired.attempts, mine, client };
}

describe("a holder that entered on its pushed grant claims it only when it holds long (REST)", () => {
  it("released within a third of the grant: no claim, the release is its only request after the message", async () => {
    const { hold, count, attempts, other, client } = await enteredOnPush("short");
    expect(attempts).toBe(2);
    await pause(20);
    await hold.release();
    await client.settled();
    expect(count.extends).toBe(0);
    // The lock is free: the release of the unclaimed grant applied.
    const next = await other.tryAcquire();
    expect(next).not.toBeNull();
    await next!.release();
  });

  it("held past the grant: one claim, sent before the grant ends, and the hold lives on", async () => {
    const options = { claimWindowMs: 600 };
    const { hold, count, attempts, other } = await enteredOnPush("long", options);
    expect(attempts).toBe(2);
    expect(count.extends).toBe(0);
    await pause(1_500); // well past the 600 ms grant
    expect(count.extends).toBe(1);
    expect(hold.signal.aborted).toBe(false);
    expect(await other.tryAcquire()).toBeNull();
    // the claim gave the hold the lease it asked for
    expect(hold.toJSON().expiresAt - Date.now()).toBeGreaterThan(7_000);
    await hold.release();
    const next = await other.tryAcquire();
    expect(next).not.toBeNull();
    await next!.release();
  });

  it("a nested acquire on the handle sends the deferred claim at once and counts two holds", async () => {
    // A 6 s grant: the claim would wait about a third of it (some 2 s).
    const { hold, lock, count, other } = await enteredOnPush("nested", { claimWindowMs: 6_000 });
    const started = Date.now();
    const inner = await lock.acquire({ leaseMs: 10_000, waitMs: 1_000 });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(count.extends).toBe(1);
    expect(inner.fence).toBe(hold.fence);
    await inner.release();
    expect(await other.tryAcquire()).toBeNull();
    await hold.release();
    const next = await other.tryAcquire();
    expect(next).not.toBeNull();
    await next!.release();
  });

  it("a waiter behind an unclaimed pushed grant is told its age from the grant, not 0", async () => {
    const { hold, other } = await enteredOnPush("age");
    await pause(250);
    const outcome = await other.acquire({ waitMs: 1 }).catch((e: unknown) => e);
    expect(outcome).toBeInstanceOf(AcquireTimeoutError);
    const hint = (outcome as AcquireTimeoutError).hint;
    expect(hint?.holdAgeMs).toBeGreaterThanOrEqual(200);
    await hold.release();
  });
  it("an extend by the holder before the deferred claim is not undone by it", async () => {
    const { hold, count } = await enteredOnPush("extended", { claimWindowMs: 600 });
    await hold.extend(60_000);
    expect(count.extends).toBe(1);
    await pause(1_000); // past the claim's time
    expect(count.extends).toBe(1);
    expect(hold.toJSON().expiresAt - Date.now()).toBeGreaterThan(50_000);
    await hold.release();
  });

  it("a PermitExpirableSemaphore permit entered on its pushed grant and released at once sends no claim", async () => {
    const { permit, count, attempts, mine, client } = await permitEnteredOnPush("pes");
    expect(attempts).toBe(2); // entered on the message (see enteredOnPush)
    await pause(20);
    await permit.release();
    await client.settled();
    expect(count.extends).toBe(0);
    expect(await mine.status()).toMatchObject({ available: 1, live: 0 });
  });

  it("a permit's release on its way when the claim's time comes drops the claim: the released permit is not reported lost", async () => {
    // As for the Lock above: the claim is due about 300 ms after entering, the release leaves at
    // 100 ms and its answer comes 400 ms later.
    const { permit, count, slow, mine } = await permitEnteredOnPush("pes-racing", {
      claimWindowMs: 1_200,
    });
    await pause(100);
    slow.releaseAnswerMs = 400;
    await permit.release();
    expect(permit.signal.aborted).toBe(false);
    expect(count.extends).toBe(0);
    expect(await mine.status()).toMatchObject({ available: 1, live: 0 });
  });

  // The Semaphore is the exception: permits have no lease and their holders are not expected to
  // watch a signal, so its claim goes at once and has the whole claim window to land.
  async function semaphoreEnteredOnPush(options: Omit<ClientOptions, "redis"> = {}) {
    const prefix = keyPrefix();
    const holderClient = createClient({ redis: restBackend(), prefix, ...options });
    const { backend, count, slow } = countingExtends(restBackend());
    const events: LockEvent[] = [];
    const client = createClient({
      redis: backend,
      prefix,
      ...options,
      onEvent: (e) => events.push(e),
    });
    // Redis learns the scripts first: one claim or abandon is then one request.
    const warm = client.semaphore("sem:warm");
    await warm.trySetPermits(1);
    await (await warm.acquire()).release();
    const taken = await warm.acquire();
    await warm.acquire({ waitMs: 1 }).catch(() => undefined); // times out: abandons
    await client.settled();
    await taken.release();
    const mine = holderClient.semaphore("sem");
    await mine.trySetPermits(1);
    const held = await mine.acquire();
    const waiting = client.semaphore("sem").acquire({ waitMs: 10_000 });
    while (!events.some((e) => e.type === "waited")) await pause(2);
    await pause(300); // its stream is live
    return { held, waiting, count, slow, events, mine, client };
  }

  it("a Semaphore hold entered on its pushed grant claims at once: the permits are its own within a round trip", async () => {
    const { held, waiting, count, events, mine, client } = await semaphoreEnteredOnPush();
    const before = { ...count };
    await held.release();
    const hold = await waiting;
    const acquired = events.filter((e) => e.type === "acquired").at(-1) as { attempts: number };
    expect(acquired.attempts).toBe(2); // entered on the message (see enteredOnPush)
    await pause(50);
    expect(count.acquires - before.acquires).toBe(1); // the claim, sent at once
    await hold.release();
    await client.settled();
    expect(count.abandons - before.abandons).toBe(0); // claimed: a plain release gave it back
    expect(hold.signal.aborted).toBe(false);
    expect(await mine.status()).toMatchObject({ available: 1, total: 1, waiters: 0 });
  });

  it("a Semaphore claim answered late in the claim window still holds: it had the whole window (deferred by a third of it, the permits were lost)", async () => {
    const { held, waiting, slow, events, mine, client } = await semaphoreEnteredOnPush({
      claimWindowMs: 1_500,
    });
    // Only the claim is an acquire of the waiter's after this: its answer comes 950 ms after it
    // ran. The waiter counts the 1.5 s window from its last busy attempt, about 300 ms before the
    // release (its stream went live then), so about 1.18 s of it is left when it enters: the
    // answer is in time when the claim goes at once, too late when it goes a third (390 ms) in.
    slow.acquireAnswerMs = 950;
    await held.release();
    const hold = await waiting;
    const acquired = events.filter((e) => e.type === "acquired").at(-1) as { attempts: number };
    expect(acquired.attempts).toBe(2); // entered on the message
    await pause(1_500); // past the grant's window
    await client.settled();
    expect(hold.signal.aborted).toBe(false);
    expect(await mine.status()).toMatchObject({ available: 0, total: 1 });
    await hold.release();
    expect(await mine.status()).toMatchObject({ available: 1, total: 1, waiters: 0 });
  });

  it("a hold a keeper took over sends no deferred claim: the keeper renews it where it keeps it", async () => {
    // A keeper that hands every hold to another process (as the Durable Object keeper does, which
    // renews at once there) and renews nothing here.
    const keeper: Keeper = { keep: (task) => task.handedOver?.() };
    // No leaseMs: the default lease, kept alive by the keeper (an explicit one is not).
    const { hold, count } = await enteredOnPush("taken", { claimWindowMs: 600 }, { keeper }, {});
    await pause(1_000); // past the claim's time
    expect(count.extends).toBe(0);
    expect(hold.signal.aborted).toBe(true); // the grant ran out here; the keeper would have renewed
  });
  it("a release on its way when the claim's time comes drops the claim: the released hold is not reported lost", async () => {
    // A 1.2 s grant, entered some 300 ms after the waiter's last attempt (the grant counts from
    // it): the claim is due about 300 ms after entering. The release leaves at 100 ms and runs at
    // once, but its answer comes 400 ms later: a claim sent meanwhile would find the hold gone
    // and abort the signal of a hold that was released.
    const { hold, count, slow, other } = await enteredOnPush("racing", { claimWindowMs: 1_200 });
    await pause(100);
    slow.releaseAnswerMs = 400;
    await hold.release();
    expect(hold.signal.aborted).toBe(false);
    expect(count.extends).toBe(0);
    const next = await other.tryAcquire();
    expect(next).not.toBeNull();
    await next!.release();
  });
  it("a hold that asked for a lease shorter than its grant claims at once: the name is not taken longer than asked", async () => {
    const { hold, count } = await enteredOnPush("short-lease", {}, {}, { leaseMs: 300 });
    await pause(100);
    expect(count.extends).toBe(1);
    // the claim set the 300 ms lease: the hold ends within it, not at the 2 s grant's end
    expect(hold.toJSON().expiresAt - Date.now()).toBeLessThanOrEqual(300);
    await hold.release().catch(() => undefined);
  });
});
