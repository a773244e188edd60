import { quorumLock, type EdgelockClient } from "../../src/index.ts";
import { WRITER } from "./exclusion.ts";

/** The clients of one soak worker: one client (one invocation), and for a quorum one per database. */
export interface WorkerClients {
  readonly client: EdgelockClient;
  readonly quorum: readonly EdgelockClient[];
}

export interface TakeOptions {
  readonly waitMs: number;
  /** Absent: the client's default lease, kept alive by the keeper. */
  readonly leaseMs?: number;
  readonly signal?: AbortSignal;
}

/** One way to enter a critical section: what it guards, how many may share it, how to get in. */
export interface Kind {
  readonly resource: string;
  readonly weight: number;
  readonly limit: number;
  /** False for a Semaphore: its permits have no lease, so a forgotten one never comes back. */
  readonly leased: boolean;
  /** Pause between sections, ms (default 5–25). */
  readonly thinkMs?: readonly [number, number];
  take(w: WorkerClients, o: TakeOptions): Promise<{ release(): Promise<void> }>;
}

const lease = (o: TakeOptions) => ({
  waitMs: o.waitMs,
  ...(o.leaseMs !== undefined && { leaseMs: o.leaseMs }),
  ...(o.signal && { signal: o.signal }),
});

/** Every primitive the soak drives (the latch has its own loop: it has no critical section). */
export const KINDS: Readonly<Record<string, Kind>> = {
  lock: {
    resource: "lock",
    weight: 1,
    limit: 1,
    leased: true,
    take: (w, o) => w.client.lock("lock").acquire(lease(o)),
  },
  fair: {
    resource: "fair",
    weight: 1,
    limit: 1,
    leased: true,
    take: (w, o) => w.client.fairLock("fair").acquire(lease(o)),
  },
  // writers pause longer: with writer preference, eager writers would starve the readers
  write: {
    resource: "rw",
    weight: WRITER,
    limit: WRITER,
    leased: true,
    thinkMs: [50, 150],
    take: (w, o) => w.client.readWriteLock("rw").write.acquire(lease(o)),
  },
  read: {
    resource: "rw",
    weight: 1,
    limit: WRITER - 1,
    leased: true,
    take: (w, o) => w.client.readWriteLock("rw").read.acquire(lease(o)),
  },
  multi: {
    resource: "multi",
    weight: 1,
    limit: 1,
    leased: true,
    // two names in one slot (one script) and one elsewhere (a second group)
    take: (w, o) => w.client.multiLock(["m{g}a", "m{g}b", "m-other"]).acquire(lease(o)),
  },
  semaphore: {
    resource: "sem",
    weight: 1,
    limit: 2,
    leased: false,
    take: (w, o) =>
      w.client
        .semaphore("sem")
        .acquire({ waitMs: o.waitMs, ...(o.signal && { signal: o.signal }) }),
  },
  permit: {
    resource: "pes",
    weight: 1,
    limit: 2,
    leased: true,
    take: (w, o) => w.client.permitExpirableSemaphore("pes").acquire(lease(o)),
  },
  // Redlock's per-request timeout would be lease / 10: too short for two cores shared with other tests
  quorum: {
    resource: "quorum",
    weight: 1,
    limit: 1,
    leased: true,
    take: (w, o) => quorumLock(w.quorum, "quorum", { requestTimeoutMs: 400 }).acquire(lease(o)),
  },
};

/** Configuration the soak sets once: permanent by design (Redisson's semaphores keep theirs too). */
export async function configure(client: EdgelockClient): Promise<void> {
  await client.semaphore("sem").trySetPermits(2);
  await client.permitExpirableSemaphore("pes").trySetPermits(2);
}
