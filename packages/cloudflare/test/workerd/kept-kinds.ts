import {
  inspect,
  type AcquireOptions,
  type EdgelockClient,
  type InspectKind,
} from "@edgelock/core";
import type { KeepableHold } from "../../src/index.ts";

/** A hold as every leased kind's `acquire()` returns it. */
export interface AnyHeld {
  readonly signal: AbortSignal;
  toJSON(): KeepableHold;
  release(): Promise<void>;
}

/** One leased kind, as the keeper tests need it: how to take a hold, and where it lives on the server. */
export interface KeptKind {
  readonly kind: string;
  acquire(client: EdgelockClient, name: string, options?: AcquireOptions): Promise<AnyHeld>;
  /** The names and inspector kind the hold lives under, and the holder mode it shows there. */
  readonly at: (name: string) => readonly string[];
  readonly inspectKind: InspectKind;
  readonly mode: "exclusive" | "read" | "write" | "permit";
}

const one = (name: string) => [name];

/** Every kind the Durable Object keeper keeps (`KEEPABLE_KINDS`), one entry each. */
export const KEPT_KINDS: readonly KeptKind[] = [
  {
    kind: "lock",
    acquire: (c, n, o) => c.lock(n).acquire(o),
    at: one,
    inspectKind: "lock",
    mode: "exclusive",
  },
  {
    kind: "fair-lock",
    acquire: (c, n, o) => c.fairLock(n).acquire(o),
    at: one,
    inspectKind: "fair-lock",
    mode: "exclusive",
  },
  {
    kind: "read-write-lock (read side)",
    acquire: (c, n, o) => c.readWriteLock(n).read.acquire(o),
    at: one,
    inspectKind: "read-write-lock",
    mode: "read",
  },
  {
    kind: "read-write-lock (write side)",
    acquire: (c, n, o) => c.readWriteLock(n).write.acquire(o),
    at: one,
    inspectKind: "read-write-lock",
    mode: "write",
  },
  {
    kind: "multi-lock",
    acquire: (c, n, o) => c.multiLock([`${n}:a`, `${n}:b`, `${n}:c`]).acquire(o),
    at: (n) => [`${n}:a`, `${n}:b`, `${n}:c`],
    inspectKind: "lock",
    mode: "exclusive",
  },
  {
    kind: "permit-expirable-semaphore",
    async acquire(c, n, o) {
      const semaphore = c.permitExpirableSemaphore(n);
      await semaphore.trySetPermits(2);
      return semaphore.acquire(o);
    },
    at: one,
    inspectKind: "permit-expirable-semaphore",
    mode: "permit",
  },
];

/** The owner id a hold shows on the server (a permit's id for a permit). */
const ownerOf = (hold: KeepableHold) =>
  hold.kind === "permit-expirable-semaphore" ? hold.id : hold.owner;

/**
 * This hold's shortest remaining lease on the server across its names, ms, read by the
 * inspector (server clock); 0 when any of its names no longer shows this owner's hold.
 */
export async function serverRemainingMs(
  probe: EdgelockClient,
  k: KeptKind,
  name: string,
  hold: KeepableHold,
): Promise<number> {
  const inspector = inspect(probe);
  const left = await Promise.all(
    k.at(name).map(async (n) => {
      const d = await inspector.describe(n, { kind: k.inspectKind, revealOwners: true });
      const mine = d?.holders.find((h) => h.owner === ownerOf(hold) && h.mode === k.mode);
      return mine?.remainingMs ?? 0;
    }),
  );
  return Math.min(...left);
}

/** The lease version(s) a hold carries, one per name. */
export const versionsOf = (hold: KeepableHold): readonly number[] =>
  hold.kind === "multi-lock" ? (hold.versions ?? []) : [hold.version ?? -1];

/** How many holds (anyone's) the server shows on the hold's names. */
export async function serverHolders(
  probe: EdgelockClient,
  k: KeptKind,
  name: string,
): Promise<number> {
  const inspector = inspect(probe);
  const found = await Promise.all(
    k.at(name).map(async (n) => {
      const d = await inspector.describe(n, { kind: k.inspectKind });
      return d?.holders.length ?? 0;
    }),
  );
  return found.reduce((a, b) => a + b, 0);
}
