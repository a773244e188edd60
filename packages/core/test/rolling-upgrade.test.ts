import { Redis } from "@upstash/redis";
import { harness, keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import {
  resolveBackend,
  type Backend,
  type EdgelockClient,
  type HeldLock,
  type SerializedLease,
} from "../src/index.ts";
import {
  fairLockKeys,
  lockKeys,
  permitSemaphoreKeys,
  readWriteLockKeys,
  semaphoreKeys,
} from "../src/keys.ts";
import {
  oldFairLock,
  oldLock,
  oldPermitSemaphore,
  oldReadLock,
  oldSemaphore,
  oldWriteLock,
  type OldLockSide,
} from "./fixtures/c6a5b43/old-client.ts";
import { delay, makeTestClient } from "./support.ts";

// docs/protocol.md "Rolling upgrade": clients of c6a5b43 (the "old client": that commit's scripts,
// argument layouts and key names, run by raw EVAL; see fixtures/c6a5b43/README.md) and today's
// `createClient` on one database and one prefix exclude each other on the same keys, and a
// renewal either sends leaves the other's next renewal applying. Both talk REST to one redis-server.

const rest = () => {
  const env = harness();
  return new Redis({ url: env.restUrl, token: env.restToken });
};

function setup() {
  const prefix = keyPrefix();
  const backend: Backend = resolveBackend(rest());
  const { client } = makeTestClient(rest(), { prefix });
  return { prefix, backend, client };
}

/** One side of a lock-shaped primitive, today's handle and c6a5b43's. */
interface SideKind {
  readonly label: string;
  handle(client: EdgelockClient, name: string, owner?: string): NewSide;
  old(backend: Backend, prefix: string, name: string, owner: string): OldLockSide;
  /** A handle of another owner that a hold of this side excludes (readers share: a writer). */
  rival(client: EdgelockClient, name: string): NewSide;
  /** The kind its serialised leases carry. */
  /** The kind name c6a5b43's `toJSON()` wrote (the read-write sides had kinds of their own then). */
  readonly leaseKind: "lock" | "fair-lock" | "read-lock" | "write-lock";
  /** Where its waiters queue (today's key; the old client's is the same string). */
  queueKey(prefix: string, name: string): string;
}

interface NewSide {
  acquire(options?: { leaseMs?: number; waitMs?: number }): Promise<HeldLock>;
  tryAcquire(options?: { leaseMs?: number }): Promise<HeldLock | null>;
  isLocked(): Promise<boolean>;
  remainingMs(): Promise<number>;
  resume(lease: SerializedLease): HeldLock;
}

const opt = (owner?: string) => (owner === undefined ? {} : { owner });

/** Polls `ready` every 5 ms; fails the test instead of hanging. */
async function until(ready: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ready())) {
    if (Date.now() > end) throw new Error(`condition not reached within ${ms} ms`);
    await delay(5);
  }
}

const zcard = async (backend: Backend, key: string) =>
  Number(await backend.command(["ZCARD", key], AbortSignal.timeout(5_000)));

const LOCK: SideKind = {
  label: "Lock",
  handle: (c, n, o) => c.lock(n, opt(o)),
  old: oldLock,
  rival: (c, n) => c.lock(n),
  leaseKind: "lock",
  queueKey: (p, n) => lockKeys(p, n).queue,
};
const FAIR: SideKind = {
  label: "FairLock",
  handle: (c, n, o) => c.fairLock(n, opt(o)),
  old: oldFairLock,
  rival: (c, n) => c.fairLock(n),
  leaseKind: "fair-lock",
  queueKey: (p, n) => fairLockKeys(p, n).queue,
};
const READ: SideKind = {
  label: "ReadWriteLock read side",
  handle: (c, n, o) => c.readWriteLock(n, opt(o)).read,
  old: oldReadLock,
  rival: (c, n) => c.readWriteLock(n).write,
  leaseKind: "read-lock",
  queueKey: (p, n) => readWriteLockKeys(p, n).queue,
};
const WRITE: SideKind = {
  label: "ReadWriteLock write side",
  handle: (c, n, o) => c.readWriteLock(n, opt(o)).write,
  old: oldWriteLock,
  rival: (c, n) => c.readWriteLock(n).write,
  leaseKind: "write-lock",
  queueKey: (p, n) => readWriteLockKeys(p, n).queue,
};

/** Pairs that must exclude each other: [the old client's side, today's side]. */
const EXCLUDING: readonly (readonly [SideKind, SideKind])[] = [
  [LOCK, LOCK],
  [FAIR, FAIR],
  [WRITE, WRITE],
  [READ, WRITE],
  [WRITE, READ],
];

describe("rolling upgrade: c6a5b43 clients and today's on one database", () => {
  for (const [oldKind, newKind] of EXCLUDING) {
    const pair = `old ${oldKind.label} / new ${newKind.label}`;

    it(`${pair}: the old client holds, the new one is refused; the old release frees it for the new`, async () => {
      const { prefix, backend, client } = setup();
      const old = oldKind.old(backend, prefix, "r", "old-owner");
      const { status, fence } = await old.acquire(10_000);
      expect(status).toBe(1);
      const rival = newKind.handle(client, "r");
      expect(await rival.isLocked()).toBe(newKind === oldKind);
      expect(await rival.tryAcquire()).toBeNull();
      expect(await old.release(fence)).toBe(1);
      const held = await rival.tryAcquire();
      expect(held).not.toBeNull();
      // one fence counter: the new grant's fence is above the old one's
      expect(held!.fence).toBeGreaterThan(fence);
      await held!.release();
      expect(await rival.isLocked()).toBe(false);
    });

    it(`${pair}: the new client holds, the old one is refused; the new release frees it for the old`, async () => {
      const { prefix, backend, client } = setup();
      const held = await newKind.handle(client, "r").acquire({ leaseMs: 10_000 });
      const old = oldKind.old(backend, prefix, "r", "old-owner");
      expect((await old.acquire(10_000)).status).toBe(0);
      await held.release();
      const { status, fence } = await old.acquire(10_000);
      expect(status).toBe(1);
      expect(fence).toBeGreaterThan(held.fence);
      expect(await old.release(fence)).toBe(1);
      expect(await newKind.handle(client, "r").isLocked()).toBe(false);
    });
  }

  for (const kind of [LOCK, FAIR, READ, WRITE]) {
    it(`${kind.label}: an old client's extend of a new hold applies, and the new holder's next renewal still applies`, async () => {
      const { prefix, backend, client } = setup();
      const owner = "owner-shared-by-old-and-new";
      const handle = kind.handle(client, "x", owner);
      const held = await handle.acquire({ leaseMs: 10_000 });
      // e.g. an old keeper or an old process that resumed the serialised lease renews it
      expect(await kind.old(backend, prefix, "x", owner).extend(held.fence, 3_000)).toBe(1);
      expect(await handle.remainingMs()).toBeLessThanOrEqual(3_000);
      await held.extend(20_000);
      expect(await handle.remainingMs()).toBeGreaterThan(15_000);
      expect(held.signal.aborted).toBe(false);
      expect(await kind.rival(client, "x").tryAcquire()).toBeNull();
      await held.release();
      expect(await handle.isLocked()).toBe(false);
    });

    it(`${kind.label}: an old client's extend of a new hold is refused once the new holder released`, async () => {
      const { prefix, backend, client } = setup();
      const owner = "owner-shared-by-old-and-new";
      const held = await kind.handle(client, "y", owner).acquire({ leaseMs: 10_000 });
      await held.release();
      expect(await kind.old(backend, prefix, "y", owner).extend(held.fence, 3_000)).toBe(0);
      expect(await kind.handle(client, "y").isLocked()).toBe(false);
    });
  }

  for (const kind of [LOCK, FAIR, WRITE]) {
    it(`${kind.label}: an old waiter queued behind a new holder is handed the lock before a new newcomer`, async () => {
      const { prefix, backend, client } = setup();
      const held = await kind.handle(client, "q").acquire({ leaseMs: 10_000 });
      const waiter = kind.old(backend, prefix, "q", "old-waiter");
      expect(await waiter.poll!(10_000)).toMatchObject({ status: 0, position: 1 });
      // The old waiter did not mark the hold (w), so the release does not read the queue: the
      // next acquire that finds the lock free (here the newcomer's) grants the queue's head first.
      await held.release();
      const newcomer = kind.rival(client, "q");
      expect(await newcomer.tryAcquire()).toBeNull();
      const claimed = await waiter.poll!(10_000);
      expect(claimed.status).toBe(1);
      expect(claimed.fence).toBeGreaterThan(held.fence);
      expect(await newcomer.tryAcquire()).toBeNull();
      expect(await waiter.release(claimed.fence)).toBe(1);
      const next = await newcomer.tryAcquire();
      expect(next).not.toBeNull();
      await next!.release();
      expect(await zcard(backend, kind.queueKey(prefix, "q"))).toBe(0);
    });

    it(`${kind.label}: a new waiter queued behind an old holder is handed the lock when the old client releases`, async () => {
      const { prefix, backend, client } = setup();
      const old = kind.old(backend, prefix, "q", "old-holder");
      const { status, fence } = await old.acquire(10_000);
      expect(status).toBe(1);
      const waiting = kind.handle(client, "q").acquire({ waitMs: 5_000, leaseMs: 10_000 });
      await until(async () => (await zcard(backend, kind.queueKey(prefix, "q"))) === 1);
      expect(await old.release(fence)).toBe(1); // hands it to the queue's head: the new waiter
      // reserved for (or claimed by) the new waiter: an old newcomer is refused
      const oldNewcomer = kind.old(backend, prefix, "q", "old-newcomer");
      expect((await oldNewcomer.acquire(10_000)).status).toBe(0);
      const held = await waiting;
      expect(held.fence).toBeGreaterThan(fence);
      expect((await oldNewcomer.acquire(10_000)).status).toBe(0);
      await held.release();
      const after = await oldNewcomer.acquire(10_000);
      expect(after.status).toBe(1);
      expect(await oldNewcomer.release(after.fence)).toBe(1);
    });
  }

  for (const kind of [LOCK, FAIR, READ, WRITE]) {
    it(`${kind.label}: a hold an old client serialised resumes in a new client, which renews and releases it`, async () => {
      const { prefix, backend, client } = setup();
      const owner = "owner-of-an-old-lease";
      const old = kind.old(backend, prefix, "z", owner);
      const { status, fence } = await old.acquire(5_000);
      expect(status).toBe(1);
      // what c6a5b43's held.toJSON() produced: no lease version, its kind names
      const lease = {
        v: 1,
        kind: kind.leaseKind,
        prefix,
        name: "z",
        owner,
        fence,
        leaseMs: 5_000,
        expiresAt: Date.now() + 5_000,
      } as unknown as SerializedLease;
      const held = kind.handle(client, "z").resume(lease);
      await held.extend(20_000);
      expect(await kind.handle(client, "z", owner).remainingMs()).toBeGreaterThan(15_000);
      expect(held.signal.aborted).toBe(false);
      expect(await kind.rival(client, "z").tryAcquire()).toBeNull();
      await held.release();
      expect(await kind.handle(client, "z").isLocked()).toBe(false);
      expect(await old.extend(fence, 5_000)).toBe(0);
    });
  }

  it("ReadWriteLock read side: a reader's version an old release left behind does not leak into the owner's next read session", async () => {
    const { prefix, backend, client } = setup();
    const owner = "reader-across-versions";
    const read = client.readWriteLock("v", { owner }).read;
    const other = await client.readWriteLock("v").read.acquire({ leaseMs: 10_000 });
    const first = await read.acquire({ leaseMs: 10_000 });
    await first.extend(10_000); // its version moves past the first
    // an old process that resumed the read hold releases it: the reader-holds hash (kept alive
    // by the other reader) keeps `v<owner>`, which c6a5b43 did not know of
    expect(await oldReadLock(backend, prefix, "v", owner).release(first.fence)).toBe(1);
    const holds = readWriteLockKeys(prefix, "v").readerHolds;
    const left = await backend.command(["HGET", holds, `v${owner}`], AbortSignal.timeout(5_000));
    expect(Number(left)).toBeGreaterThan(0);
    expect(await read.holdCount()).toBe(0);
    const second = await read.acquire({ leaseMs: 10_000 });
    await second.extend(20_000);
    expect(await read.remainingMs()).toBeGreaterThan(15_000);
    expect(second.signal.aborted).toBe(false);
    await second.release();
    await other.release();
    expect(await read.isLocked()).toBe(false);
  });

  it("Semaphore: an old waiter queued behind a new holder is served first; a new waiter behind an old holder too", async () => {
    const { prefix, backend, client } = setup();
    const old = oldSemaphore(backend, prefix, "sq");
    const s = client.semaphore("sq");
    expect(await s.trySetPermits(1)).toBe(true);
    const hold = await s.acquire();
    const [busy, , , position] = await old.poll("old-waiter", 1);
    expect([busy, position]).toEqual([0, 1]);
    await hold.release(); // the permit goes to the queue's head: the old waiter
    expect(await s.tryAcquire()).toBeNull();
    expect((await old.poll("old-waiter", 1))[0]).toBe(1);
    expect((await old.release(1))[0]).toBe(1);
    // the other way round
    expect((await old.tryAcquire(1))[0]).toBe(1);
    const waiting = s.acquire({ waitMs: 5_000 });
    await until(async () => (await s.status()).waiters === 1);
    expect((await old.release(1))[0]).toBe(1); // to the queue's head: the new waiter
    expect((await old.tryAcquire(1))[0]).toBe(0);
    await (await waiting).release();
    expect(await s.status()).toMatchObject({ available: 1, total: 1, waiters: 0 });
    expect(await zcard(backend, semaphoreKeys(prefix, "sq").queue)).toBe(0);
  });

  it("PermitExpirableSemaphore: an old waiter queued behind a new holder is served first; a new waiter behind an old holder too", async () => {
    const { prefix, backend, client } = setup();
    const old = oldPermitSemaphore(backend, prefix, "pq");
    const s = client.permitExpirableSemaphore("pq");
    expect(await s.trySetPermits(1)).toBe(true);
    const permit = await s.acquire({ leaseMs: 10_000 });
    const queued = await old.poll("old-waiter", 10_000);
    expect([queued[0], queued[4]]).toEqual([0, 1]);
    await permit.release(); // the permit goes to the queue's head: the old waiter
    expect(await s.tryAcquire({ leaseMs: 10_000 })).toBeNull();
    expect((await old.poll("old-waiter", 10_000))[0]).toBe(1);
    expect(await old.release("old-waiter")).toBe(1);
    // the other way round
    expect(await old.tryAcquire("old-holder", 10_000)).toBe(1);
    const waiting = s.acquire({ leaseMs: 10_000, waitMs: 5_000 });
    await until(async () => (await s.status()).waiters === 1);
    expect(await old.release("old-holder")).toBe(1); // to the queue's head: the new waiter
    expect(await old.tryAcquire("old-newcomer", 10_000)).toBe(0);
    await (await waiting).release();
    expect(await s.status()).toMatchObject({ available: 1, live: 0, waiters: 0 });
    expect(await zcard(backend, permitSemaphoreKeys(prefix, "pq").queue)).toBe(0);
  });

  it("Semaphore: old and new clients count the same permits", async () => {
    const { prefix, backend, client } = setup();
    const old = oldSemaphore(backend, prefix, "s");
    const s = client.semaphore("s");
    expect((await old.trySetPermits(2))[0]).toBe(1);
    expect(await s.trySetPermits(5)).toBe(false); // already set, by the old client
    expect(await s.availablePermits()).toBe(2);
    // old holds both: new is refused; the old release frees them for new
    expect((await old.tryAcquire(2))[0]).toBe(1);
    expect(await s.availablePermits()).toBe(0);
    expect(await s.tryAcquire({ permits: 1 })).toBeNull();
    expect((await old.release(2))[0]).toBe(1);
    const hold = await s.tryAcquire({ permits: 2 });
    expect(hold).not.toBeNull();
    // new holds both: old is refused; the new release frees them for old
    expect((await old.tryAcquire(1))[0]).toBe(0);
    await hold!.release();
    expect((await old.tryAcquire(2))[0]).toBe(1);
    expect((await old.release(2))[0]).toBe(1);
    // an old release beyond what is outstanding is refused: the total stays what was set
    expect((await old.release(1))[0]).toBe(0);
    expect(await s.status()).toMatchObject({ available: 2, total: 2, waiters: 0 });
  });

  it("PermitExpirableSemaphore: old and new clients count the same permits", async () => {
    const { prefix, backend, client } = setup();
    const old = oldPermitSemaphore(backend, prefix, "p");
    const s = client.permitExpirableSemaphore("p");
    expect((await old.trySetPermits(1))[0]).toBe(1);
    expect(await s.trySetPermits(5)).toBe(false);
    // old holds the permit: new is refused; the old release frees it for new
    expect(await old.tryAcquire("old-permit-1", 10_000)).toBe(1);
    expect(await s.tryAcquire({ leaseMs: 10_000 })).toBeNull();
    expect(await old.release("old-permit-1")).toBe(1);
    const permit = await s.tryAcquire({ leaseMs: 10_000 });
    expect(permit).not.toBeNull();
    // new holds it: old is refused; the new release frees it for old
    expect(await old.tryAcquire("old-permit-2", 10_000)).toBe(0);
    await permit!.release();
    expect(await old.tryAcquire("old-permit-3", 10_000)).toBe(1);
    expect(await old.release("old-permit-3")).toBe(1);
    expect(await s.status()).toMatchObject({ available: 1, live: 0, waiters: 0 });
  });

  it("PermitExpirableSemaphore: an old client's extend of a new permit applies, and the new holder's next renewal still applies", async () => {
    const { prefix, backend, client } = setup();
    const old = oldPermitSemaphore(backend, prefix, "pe");
    const s = client.permitExpirableSemaphore("pe");
    await s.trySetPermits(1);
    const permit = await s.acquire({ leaseMs: 10_000 });
    const left = async () => {
      const key = permitSemaphoreKeys(prefix, "pe").permits;
      const signal = AbortSignal.timeout(5_000);
      const expiry = Number(await backend.command(["ZSCORE", key, permit.id], signal));
      const [sec, us] = (await backend.command(["TIME"], signal)) as [string, string];
      return expiry - (Number(sec) * 1_000 + Math.floor(Number(us) / 1_000));
    };
    expect(await old.extend(permit.id, 3_000)).toBe(1);
    expect(await left()).toBeLessThanOrEqual(3_000);
    await permit.extend(20_000);
    expect(await left()).toBeGreaterThan(15_000);
    expect(permit.signal.aborted).toBe(false);
    expect(await s.tryAcquire({ leaseMs: 1_000 })).toBeNull();
    await permit.release();
    expect(await old.extend(permit.id, 3_000)).toBe(0);
    expect(await s.status()).toMatchObject({ available: 1, live: 0 });
  });
});
