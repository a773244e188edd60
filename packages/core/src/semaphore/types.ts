import type { AsyncDisposableHold } from "../disposable.ts";
/** Options of `semaphore.acquire()`. Times are integer milliseconds. */
export interface SemaphoreAcquireOptions {
  /** How many permits to take at once (all or none). @default 1 */
  readonly permits?: number;
  /** How long to wait for them; 0 tries once and never queues. @default 0 */
  readonly waitMs?: number;
  /** Cancels the wait at once (the error's `cause` is the signal's reason). */
  readonly signal?: AbortSignal;
}

/** A serialised `SemaphoreHold`, so another invocation can release it exactly once. */
export interface SerializedSemaphoreHold {
  readonly v: 1;
  readonly kind: "semaphore";
  readonly prefix: string;
  readonly name: string;
  readonly permits: number;
  /**
   * The operation id of this hold's release: the same id makes a repeated release a no-op. After
   * a release known not to have applied (`BackendError`), the next id (serialise again).
   */
  readonly releaseOp: string;
  /**
   * Present when a release call ended with its outcome unknown: the release's anchor deadline
   * (server ms). A repeat from here is refused once a record of that call could have expired,
   * instead of applying a second time.
   */
  readonly releaseAnchor?: number;
  /**
   * Present when the hold was serialised while the direct grant it entered on was not yet
   * confirmed by its claim: the waiter id and the claim's operation id (and its deadline, server
   * ms, once sent). Every copy then gives the permits back by abandoning that claim, exactly once.
   * Release such a hold within `operationRecordTtlMs`: after the claim's record expired, nothing
   * tells what it took, and the release says `NotHeldError`.
   */
  readonly claimWaiter?: string;
  readonly claimOp?: string;
  readonly claimDeadline?: number;
}

/**
 * Permits taken from a `Semaphore`. Like Redisson's `RSemaphore` the permits are not owned and
 * have no lease: if the holder dies without releasing, they are gone until someone calls
 * `semaphore.release()` or `addPermits()`. Use `PermitExpirableSemaphore` for leased permits.
 */
export interface SemaphoreHold extends AsyncDisposableHold {
  readonly name: string;
  readonly permits: number;
  /**
   * Aborts (with `LeaseLostError`) if these permits turn out not to be yours. Only a waiter that
   * entered on a pushed direct grant can see it: it holds the grant from the message, one trip
   * after the release, and claims it in the background; if the claim does not land within the
   * grant's claim window, the grant goes back to the pool and this signal aborts. Once the claim
   * landed (within one round trip, normally) it never aborts. Permits taken by a reply never abort.
   */
  readonly signal: AbortSignal;
  /**
   * Gives the permits back, exactly once: calling it again after an `OutcomeUnknownError` retries
   * the same operation (never releases twice). Throws `NotHeldError` after a successful release,
   * or when the permits were lost (`signal` aborted), `PermitsRefusedError` when someone else
   * already released these permits.
   */
  release(): Promise<void>;
  toJSON(): SerializedSemaphoreHold;
}

/** What the server holds for one semaphore. */
export interface SemaphoreStatus {
  /** False until `trySetPermits` or `addPermits` created it. */
  readonly set: boolean;
  readonly available: number;
  /** What was set plus what was added: the ceiling for releases. */
  readonly total: number;
  /** Waiters in the queue (some may be dead and not yet evicted). */
  readonly waiters: number;
}
