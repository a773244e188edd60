import { Redis } from "@upstash/redis";
import { harness, keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import { createClient, type LockEvent } from "../src/index.ts";
import { abandonScript as fairAbandon } from "../src/fair-lock/scripts.generated.ts";
import { abandonScript } from "../src/lock/scripts.generated.ts";
import { abandonScript as permitAbandon } from "../src/permit-semaphore/scripts.generated.ts";
import { abandonWriteScript } from "../src/read-write-lock/scripts.generated.ts";
import { abandonScript as semaphoreAbandon } from "../src/semaphore/scripts.generated.ts";
import { restBackend, tapBackend } from "./rest-backend.ts";

/**
 * A wait that gives up leaves the queue in the background (an abandon of its queued attempt),
 * and that abandon also gives back a direct grant made to the waiter meanwhile. It cannot tell
 * that grant from one made to a later wait of the same handle: landing late, after the next wait
 * entered on its grant message (unclaimed), it would give that one back while its holder works.
 * So a handle's next acquire waits until its earlier waits' undos are settled.
 */
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const ABANDONS = [abandonScript, fairAbandon, abandonWriteScript, semaphoreAbandon, permitAbandon];

/** The REST backend, push included, whose abandons are sent `slow.abandonMs` late. */
function slowAbandons() {
  const inner = restBackend();
  const slow = { abandonMs: 0 };
  const backend = tapBackend(inner, async (args, signal) => {
    if (ABANDONS.some((a) => args[1] === a.sha || args[1] === a.source))
      await pause(slow.abandonMs);
    return inner.command(args, signal);
  });
  return { backend, slow };
}

type Client = ReturnType<typeof createClient>;

const owned = (owner: string | undefined) => (owner === undefined ? {} : { owner });

/** The lock-shaped kinds whose waiters enter on a pushed grant, each as a handle of `owner`. */
const KINDS = [
  { kind: "Lock", of: (c: Client, name: string, owner?: string) => c.lock(name, owned(owner)) },
  {
    kind: "FairLock",
    of: (c: Client, name: string, owner?: string) => c.fairLock(name, owned(owner)),
  },
  {
    kind: "ReadWriteLock write side",
    of: (c: Client, name: string, owner?: string) => c.readWriteLock(name, owned(owner)).write,
  },
] as const;

/** Redis learns the abandon scripts first: a NOSCRIPT round would send a late abandon twice as late. */
async function warmAbandon(holder: Client, client: Client) {
  for (const { of } of KINDS) {
    const blocker = await of(holder, "warm").acquire({ leaseMs: 10_000 });
    await expect(of(client, "warm").acquire({ waitMs: 50 })).rejects.toThrow();
    await client.settled();
    await blocker.release();
  }
}

function clients() {
  const env = harness();
  const prefix = keyPrefix();
  // A long claim window (the releasing client's sets the grant's): the next wait's grant stays
  // unclaimed (entered on) for seconds.
  const plain = () =>
    createClient({
      redis: new Redis({ url: env.restUrl, token: env.restToken }),
      prefix,
      claimWindowMs: 6_000,
    });
  const { backend, slow } = slowAbandons();
  const events: LockEvent[] = [];
  const options = { prefix, claimWindowMs: 6_000 };
  const client = createClient({ redis: backend, ...options, onEvent: (e) => events.push(e) });
  return { holder: plain(), other: plain(), client, slow, events };
}

interface Waits {
  acquire(options: {
    leaseMs?: number;
    waitMs: number;
  }): Promise<{ readonly signal: AbortSignal; release(): Promise<unknown> }>;
}

/**
 * The scenario: `blocker` holds; the first wait gives up after `giveUpMs`, its leave sent 1.2 s
 * late; the second waits and is handed the lock when the blocker lets go. Past the late leave, the
 * second still holds and no one else gets in (`othersGetIn`: every name's `tryAcquire`).
 */
async function lateLeave(
  c: ReturnType<typeof clients>,
  blocker: { release(): Promise<unknown> },
  waits: { readonly first: Waits; readonly second: Waits; readonly giveUpMs: number },
  othersGetIn: () => Promise<unknown[]>,
) {
  c.slow.abandonMs = 1_200;
  await expect(waits.first.acquire({ waitMs: waits.giveUpMs })).rejects.toThrow();
  const second = waits.second.acquire({ leaseMs: 20_000, waitMs: 15_000 });
  await pause(waits.giveUpMs + 200); // queued again, its stream live (it waited a moment ago)
  await blocker.release();
  const held = await second;
  await pause(1_500); // past the late leave
  await c.client.settled();
  expect(held.signal.aborted).toBe(false);
  for (const got of await othersGetIn()) expect(got).toBeNull();
  await held.release();
}

describe("a handle's next wait is not undone by its previous wait's late leave (REST)", () => {
  it.each(KINDS)("$kind: one handle's two waits", async ({ of }) => {
    const c = clients();
    await warmAbandon(c.holder, c.client);
    const blocker = await of(c.holder, "sw").acquire({ leaseMs: 20_000 });
    const lock = of(c.client, "sw");
    await lateLeave(c, blocker, { first: lock, second: lock, giveUpMs: 300 }, async () => [
      await of(c.other, "sw").tryAcquire(),
    ]);
  });

  it("MultiLock across slots (its joins too)", async () => {
    const c = clients();
    await warmAbandon(c.holder, c.client);
    const blocker = await c.holder.multiLock(["swa", "swb"]).acquire({ leaseMs: 20_000 });
    const multi = c.client.multiLock(["swa", "swb"]);
    await lateLeave(c, blocker, { first: multi, second: multi, giveUpMs: 600 }, async () => [
      await c.other.lock("swa").tryAcquire(),
      await c.other.lock("swb").tryAcquire(),
    ]);
  });

  // An explicit owner is shared by every handle made with it (in this isolate or another, as a
  // resumed job's): no handle can wait for another's leave, so such a handle never enters on a
  // grant message unclaimed; it asks the server, which claims the grant in the same script.
  it.each(KINDS)(
    "$kind: two handles of one explicit owner, the first's leave late",
    async ({ of }) => {
      const c = clients();
      await warmAbandon(c.holder, c.client);
      const blocker = await of(c.holder, "so").acquire({ leaseMs: 20_000 });
      const [first, second] = [of(c.client, "so", "job-7"), of(c.client, "so", "job-7")];
      await lateLeave(c, blocker, { first, second, giveUpMs: 300 }, async () => [
        await of(c.other, "so").tryAcquire(),
      ]);
    },
  );

  it("MultiLock across slots: two handles of one explicit owner, the first's leave late", async () => {
    const c = clients();
    await warmAbandon(c.holder, c.client);
    const blocker = await c.holder.multiLock(["soa", "sob"]).acquire({ leaseMs: 20_000 });
    const handle = () => c.client.multiLock(["soa", "sob"], { owner: "job-8" });
    await lateLeave(c, blocker, { first: handle(), second: handle(), giveUpMs: 600 }, async () => [
      await c.other.lock("soa").tryAcquire(),
      await c.other.lock("sob").tryAcquire(),
    ]);
  });
});

/** The semaphores, one permit each: a waiter id per call, so no wait's leave can reach another's. */
const SEMAPHORES = [
  {
    kind: "Semaphore",
    of: async (c: Client, name: string) => {
      const s = c.semaphore(name);
      await s.trySetPermits(1);
      return s;
    },
  },
  {
    kind: "PermitExpirableSemaphore",
    of: async (c: Client, name: string) => {
      const s = c.permitExpirableSemaphore(name);
      await s.trySetPermits(1);
      return s;
    },
  },
] as const;

describe("a semaphore's next wait is not undone by its previous wait's late leave (REST)", () => {
  it.each(SEMAPHORES)("$kind: one handle's two waits", async ({ of }) => {
    const c = clients();
    const warmHeld = await (await of(c.holder, "warm")).acquire({ leaseMs: 10_000 });
    await expect((await of(c.client, "warm")).acquire({ waitMs: 50 })).rejects.toThrow();
    await c.client.settled();
    await warmHeld.release();
    const blocker = await (await of(c.holder, "ss")).acquire({ leaseMs: 20_000 });
    const sem = await of(c.client, "ss");
    await lateLeave(c, blocker, { first: sem, second: sem, giveUpMs: 300 }, async () => [
      await (await of(c.other, "ss")).tryAcquire(),
    ]);
  });
});
