import { edgelockClient } from "./edgelock.ts";
import type { BenchHold, LockLibrary } from "./types.ts";

/** Permits of the semaphores in the family scenarios. */
export const FAMILY_PERMITS = 2;

type Client = ReturnType<typeof edgelockClient>;

/**
 * How one primitive of the family takes and gives back the contended name. `permits`: how many
 * may hold at once (1 for the locks); `setUp` prepares a name before its first acquire.
 */
interface Member {
  readonly label: string;
  readonly permits: number;
  setUp?(client: Client, name: string): Promise<unknown>;
  acquire(client: Client, name: string, waitMs: number): Promise<BenchHold>;
}

const held = (h: { signal: AbortSignal; release(): Promise<unknown> }): BenchHold => ({
  signal: h.signal,
  release: async () => void (await h.release()),
});

const MEMBERS: readonly Member[] = [
  {
    label: "FairLock",
    permits: 1,
    acquire: async (c, n, waitMs) => held(await c.fairLock(n).acquire({ waitMs })),
  },
  {
    label: "ReadWriteLock write",
    permits: 1,
    acquire: async (c, n, waitMs) => held(await c.readWriteLock(n).write.acquire({ waitMs })),
  },
  {
    label: "MultiLock (2 names)",
    permits: 1,
    acquire: async (c, n, waitMs) =>
      held(await c.multiLock([`${n}:a`, `${n}:b`]).acquire({ waitMs })),
  },
  {
    label: `Semaphore (${FAMILY_PERMITS} permits)`,
    permits: FAMILY_PERMITS,
    setUp: (c, n) => c.semaphore(n).trySetPermits(FAMILY_PERMITS),
    acquire: async (c, n, waitMs) => {
      const hold = await c.semaphore(n).acquire({ waitMs });
      return { release: () => hold.release() };
    },
  },
  {
    label: `PermitExpirableSemaphore (${FAMILY_PERMITS} permits)`,
    permits: FAMILY_PERMITS,
    setUp: (c, n) => c.permitExpirableSemaphore(n).trySetPermits(FAMILY_PERMITS),
    acquire: async (c, n, waitMs) => {
      const permit = await c.permitExpirableSemaphore(n).acquire({ waitMs });
      return { signal: permit.signal, release: () => permit.release() };
    },
  },
];

/** A queued primitive of edgelock as a bench library, with push (the default client). */
export interface FamilyLibrary extends LockLibrary {
  readonly permits: number;
}

/**
 * Every queued primitive beside the Lock, each its own library, so the contention runner and its
 * counters serve them unchanged. A name is set up (permits) before its first acquire: the run's
 * name when the worker starts (before the counters' snapshot), a warm-up name on first use.
 */
export const FAMILY: readonly FamilyLibrary[] = MEMBERS.map((m) => ({
  name: `edgelock ${m.label}`,
  transport: "rest",
  settings: "defaults: just-in-time polling + SSE push, claim window 2 s",
  permits: m.permits,
  async worker(env) {
    const client = edgelockClient(env, "push");
    const ready = new Set<string>();
    const prepare = async (name: string) => {
      if (ready.has(name)) return;
      await m.setUp?.(client, name);
      ready.add(name);
    };
    await prepare(env.name);
    return {
      async acquire({ waitMs, name = env.name }) {
        await prepare(name);
        return m.acquire(client, name, waitMs);
      },
      close: () => client.settled(),
    };
  },
}));
