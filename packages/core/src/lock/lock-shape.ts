import type { Operation } from "../engine/operation.ts";
import type { LockKeys } from "../keys.ts";
import type { AcquireReply, LockInfo } from "./codec.ts";
import type { AcquireParams, LockRef } from "./lock-ref.ts";
import type { SerializedLockLease, SerializedReadWriteLease } from "./types.ts";

/** The kind (and read-write side) a lease is serialised as. */
export type LeaseIdentity =
  Pick<SerializedLockLease, "kind"> | Pick<SerializedReadWriteLease, "kind" | "side">;

export interface ExtendParams {
  readonly fence: number;
  /** The lease version the hold last saw. */
  readonly version: number;
  readonly leaseMs: number;
  readonly op: Operation;
  /** Until the hold's local deadline: a renewal applied later would be useless. */
  readonly budgetMs: number;
  /** Aborts when the hold ends (the keeper's stop): a renewal still retrying then stops at once. */
  readonly signal?: AbortSignal | undefined;
}

export interface ExtendResult {
  /** "stale": another renewal applied first; `version` and `pttl` are the server's. */
  readonly status: "renewed" | "stale" | "gone";
  readonly version: number;
  readonly pttl: number;
  readonly sentAt: number;
}

/**
 * The script calls behind a lock handle. The Lock's machinery (acquire loop, holds, leases,
 * keeper, resume) is shared by every lock-shaped primitive; what differs — the fair lock's strict
 * FIFO, the read and write sides of a read-write lock — is only which scripts run, so a primitive
 * brings its own `LockCalls` (its `calls.ts`) instead of copying that machinery.
 */
export interface LockCalls {
  /** Written into serialised leases, so a lease resumes only on a handle of the same kind (and side). */
  readonly serializedAs: LeaseIdentity;
  /**
   * What a waiter does with a grant published on `channelPrefix + owner` (`fence,server ms,ms the
   * grant is reserved`): `enter` at once and claim it with `extend` in the background (needs an
   * extend that claims an unclaimed grant, as the Lock's does); `claim` by acquiring (one
   * request). `wake`: waiters never queue (readers); a release they wait for publishes on
   * `channelPrefix` itself, and a waiter attempts on it while it keeps polling as without push.
   * Absent: the scripts publish no grants, and waiters only poll.
   */
  readonly grantPush?: "enter" | "claim" | "wake";
  acquire(ref: LockRef, p: AcquireParams): Promise<{ reply: AcquireReply; sentAt: number }>;
  release(
    ref: LockRef,
    fence: number,
    op: Operation,
  ): Promise<{ released: boolean; remaining: number }>;
  /** Renews the hold's lease; `p.signal` (the keeper's stop) cancels a renewal the hold no longer needs. */
  extend(ref: LockRef, p: ExtendParams): Promise<ExtendResult>;
  /** Leaves the queue and undoes whatever `op` may have taken. Safe to repeat. */
  abandon(ref: LockRef, op: Operation): Promise<boolean>;
  inspect(ref: LockRef): Promise<LockInfo>;
  forceUnlock(ref: LockRef, op: Operation): Promise<boolean>;
}

/** A lock-shaped primitive: its keys (same shape as the Lock's) and its script calls. */
export interface LockShape {
  readonly keys: LockKeys;
  readonly calls: LockCalls;
}
