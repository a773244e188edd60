import type { HeldLock, HeldMultiLock, SerializedLease } from "@edgelock/core";
import { fairLockKeys, lockKeys, readWriteLockKeys } from "../../../../packages/core/src/keys.ts";
import type { Belief, Primitive } from "../history.ts";
import type { Invocation } from "../world/invocation.ts";
import type { ActorContext } from "./actor.ts";

/** A leased hold of any lock kind: a single lock's (Lock, FairLock, a ReadWriteLock side) or a multi-lock's. */
export type AnyHeld = HeldLock | HeldMultiLock;

interface AcquireCall {
  readonly leaseMs?: number;
  readonly waitMs?: number;
}

/** How one owner's handle acquires (the same handle re-enters). */
export interface LockHandle {
  tryAcquire(options: AcquireCall): Promise<AnyHeld | null>;
  acquire(options: AcquireCall & { waitMs: number }): Promise<AnyHeld>;
}

/**
 * One kind of lock the lock actor drives, as the oracle sees it: a target is one or more names
 * (a multi-lock's), each name one resource (its lock hash) with one belief per hold.
 */
export interface LockDriver {
  readonly primitive: Primitive;
  /** A read-write lock's side; absent: exclusive. */
  readonly mode?: Belief["mode"];
  /** The targets this run offers (each a list of names). */
  targets(ctx: ActorContext): readonly (readonly string[])[];
  /** The resource key of each name of a target, in order. */
  resources(ctx: ActorContext, names: readonly string[]): string[];
  handle(inv: Invocation, names: readonly string[], owner: string): LockHandle;
  /** The fence of each name of a target, in order. */
  fences(held: AnyHeld, names: readonly string[]): number[];
}

const single = (
  primitive: Primitive,
  names: (ctx: ActorContext) => readonly string[] | undefined,
  key: (prefix: string, name: string) => string,
  side: (
    inv: Invocation,
    name: string,
    owner?: string,
  ) => {
    tryAcquire(o: AcquireCall): Promise<HeldLock | null>;
    acquire(o: AcquireCall): Promise<HeldLock>;
    resume(lease: SerializedLease): HeldLock;
  },
  mode?: Belief["mode"],
): LockDriver => ({
  primitive,
  ...(mode === undefined ? {} : { mode }),
  targets: (ctx) => (names(ctx) ?? []).map((name) => [name]),
  resources: (ctx, [name]) => [key(ctx.prefix ?? "", name!)],
  handle: (inv, [name], owner) => side(inv, name!, owner),
  fences: (held) => [(held as HeldLock).fence],
});

export const LOCK = single(
  "lock",
  (ctx) => ctx.locks,
  (prefix, name) => lockKeys(prefix, name).lock,
  (inv, name, owner) => inv.client.lock(name, owner === undefined ? {} : { owner }),
);

export const FAIR_LOCK = single(
  "fair-lock",
  (ctx) => ctx.fairLocks,
  (prefix, name) => fairLockKeys(prefix, name).lock,
  (inv, name, owner) => inv.client.fairLock(name, owner === undefined ? {} : { owner }),
);

const rwKey = (prefix: string, name: string) => readWriteLockKeys(prefix, name).lock;
const rw = (inv: Invocation, name: string, owner?: string) =>
  inv.client.readWriteLock(name, owner === undefined ? {} : { owner });

export const RW_READ = single(
  "read-write-lock:read",
  (ctx) => ctx.rwLocks,
  rwKey,
  (inv, name, owner) => rw(inv, name, owner).read,
  "read",
);

export const RW_WRITE = single(
  "read-write-lock:write",
  (ctx) => ctx.rwLocks,
  rwKey,
  (inv, name, owner) => rw(inv, name, owner).write,
  "write",
);

/**
 * A name only multi-locks take, beside the run's lock names and under their hash tag (one slot
 * group): the Lock actors' queued waiters get every hand-off of the shared names first, so a
 * multi-lock over those alone rarely gets in.
 */
export function multiOnlyName(locks: readonly string[]): string {
  const first = locks[0] ?? "";
  const tag = first.startsWith("{") ? first.slice(0, first.indexOf("}") + 1) : "";
  return `${tag}m`;
}

/**
 * A multi-lock over the run's lock names (the Lock actors' names, so single-lock holders of the
 * same names contend with it): both names, or one of them with a name only multi-locks take.
 */
export const MULTI_LOCK: LockDriver = {
  primitive: "multi-lock",
  targets: (ctx) => [ctx.locks, ...ctx.locks.map((name) => [name, multiOnlyName(ctx.locks)])],
  resources: (ctx, names) => names.map((name) => lockKeys(ctx.prefix ?? "", name).lock),
  handle: (inv, names, owner) => inv.client.multiLock(names, { owner }),
  fences: (held, names) => names.map((name) => (held as HeldMultiLock).fenceOf(name)),
};
