import type { AsyncDisposableHold } from "../disposable.ts";
/** Options of `permitExpirableSemaphore.acquire()`. Times are integer milliseconds. */
export interface PermitAcquireOptions {
  /** How long to wait for a permit; 0 tries once and never queues. @default 0 */
  readonly waitMs?: number;
  /**
   * Fixed lease of this permit, never renewed: it returns to the pool by the server's clock when
   * it runs out. Omitted: the client's default lease, kept alive by the keeper every lease/3.
   */
  readonly leaseMs?: number;
  /** With a kept-alive lease: stop renewing after this long, so a stuck holder cannot hold forever. */
  readonly maxHoldMs?: number;
  /** Cancels the wait at once (the error's `cause` is the signal's reason). */
  readonly signal?: AbortSignal;
}

/** A permit in a form another invocation or a keeper can `resume()` to extend or release it. */
export interface SerializedPermit {
  readonly v: 1;
  readonly kind: "permit-expirable-semaphore";
  readonly prefix: string;
  readonly name: string;
  /** The permit id: a bearer secret of the permit. */
  readonly id: string;
  readonly fence: number;
  readonly leaseMs: number;
  /** Wall-clock ms (epoch) before which the lease was confirmed to last; a hint across machines. */
  readonly expiresAt: number;
  /**
   * The lease version this permit last saw on the server; its renewals carry it. Absent in a
   * permit serialised before versions: it resumes at 0 and learns the version from its first
   * renewal's stale answer.
   */
  readonly version?: number;
}

/** One permit of a `PermitExpirableSemaphore`, with its own id and lease. */
export interface Permit extends AsyncDisposableHold {
  readonly name: string;
  /** The permit's id (Redisson's permitId): random, unique per acquisition. */
  readonly id: string;
  /** Fencing token: strictly increasing per semaphore name across permits, in grant order. */
  readonly fence: number;
  /** Aborts (reason: `LeaseLostError`) when the permit's lease is lost. */
  readonly signal: AbortSignal;
  /** Lease length this permit was granted or last extended with. */
  readonly leaseMs: number;
  /** Releases the permit. Throws `NotHeldError` when it was already released or had expired. */
  release(): Promise<void>;
  /** Sets the remaining lease to `ms`. Throws `NotHeldError` when the permit is gone. */
  extend(ms: number): Promise<void>;
  toJSON(): SerializedPermit;
}

/** What the server holds for one permit-expirable semaphore. */
export interface PermitSemaphoreStatus {
  readonly set: boolean;
  /** Total minus live permits (may be negative after `addPermits` with a negative delta). */
  readonly available: number;
  readonly total: number;
  /** Permits whose lease has not run out (unclaimed direct grants included). */
  readonly live: number;
  readonly waiters: number;
}
