import type { AsyncDisposableHold } from "../disposable.ts";
/** Options of `lock.acquire()`. Times are integer milliseconds. */
export interface AcquireOptions {
  /** How long to wait for the lock; 0 tries once and never queues. @default 0 */
  readonly waitMs?: number;
  /**
   * Fixed lease, never renewed (Redisson's `leaseTime`). Omitted: the client's default lease,
   * kept alive by the keeper every lease/3 until release or `maxHoldMs`.
   */
  readonly leaseMs?: number;
  /** With a kept-alive lease: stop renewing after this long, so a stuck holder cannot hold forever. */
  readonly maxHoldMs?: number;
  /** Cancels the wait at once (the error's `cause` is the signal's reason). */
  readonly signal?: AbortSignal;
}

/** Which kind of handle a serialised lease belongs to (it resumes only on that kind). */
export type { LeaseKind } from "../kinds.ts";

/** What a lease of every lock-shaped hold carries. */
interface SerializedLeaseFields {
  readonly v: 1;
  readonly prefix: string;
  readonly name: string;
  readonly owner: string;
  readonly fence: number;
  readonly leaseMs: number;
  /** Wall-clock ms (epoch) before which the lease was confirmed to last; a hint across machines. */
  readonly expiresAt: number;
  /**
   * The lease version the hold last saw on the server (renewals are ordered by it). Absent in
   * leases serialised before versions: a resumed hold then learns it from its first renewal.
   */
  readonly version?: number;
}

/** A Lock's or FairLock's lease. */
export interface SerializedLockLease extends SerializedLeaseFields {
  readonly kind: "lock" | "fair-lock";
}

/** A lease of one side of a ReadWriteLock: it resumes only on that side. */
export interface SerializedReadWriteLease extends SerializedLeaseFields {
  readonly kind: "read-write-lock";
  readonly side: "read" | "write";
}

/**
 * A lease in a form another invocation or a keeper can `resume()` (or `client.resumeHold()`) to
 * extend or release it. One member of `SerializedHold`.
 */
export type SerializedLease = SerializedLockLease | SerializedReadWriteLease;

/** One hold of a lock. Nested holds on the same handle are separate `HeldLock`s sharing a lease. */
export interface HeldLock extends AsyncDisposableHold {
  readonly name: string;
  /** Fencing token: strictly increasing per name across acquisitions (re-entries share it). */
  readonly fence: number;
  /** Aborts (reason: `LeaseLostError`) when the lease is lost. */
  readonly signal: AbortSignal;
  /** Lease length this hold was granted or last extended with. */
  readonly leaseMs: number;
  /** Releases this hold. Throws `NotHeldError` when it was already released or had expired. */
  release(): Promise<void>;
  /** Sets the remaining lease to `ms`. Throws `NotHeldError` when the hold is gone. */
  extend(ms: number): Promise<void>;
  toJSON(): SerializedLease;
}
