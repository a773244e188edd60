import type { AsyncDisposableHold } from "../disposable.ts";
/** Options of `quorumLock(clients, name, options)`. Times are integer milliseconds. */
export interface QuorumLockOptions {
  /**
   * Timeout of each request to each database. Keep it well under the lease: a database that does
   * not answer in time counts as a "no", and the time spent waiting is taken from the validity.
   * @default lease / 10 (at least 50 ms, at most lease / 2)
   */
  readonly requestTimeoutMs?: number;
  /** Clock drift allowed between the databases and this process, as a fraction of the lease (plus 2 ms), as Redlock. @default 0.01 */
  readonly driftFactor?: number;
}

export const DEFAULT_QUORUM_OPTIONS = Object.freeze({
  driftFactor: 0.01,
  driftFloorMs: 2,
  timeoutDivisor: 10,
  minTimeoutMs: 50,
});

/** A quorum lock's lease, for another invocation or a keeper to `resume()`. */
export interface SerializedQuorumLease {
  readonly v: 1;
  readonly kind: "quorum-lock";
  readonly name: string;
  /** The key prefix of each database's client, in order: the lease resumes only on the same databases. */
  readonly prefixes: readonly string[];
  /** The acquisition's random token: it is the owner on every database. */
  readonly token: string;
  readonly fence: number;
  readonly leaseMs: number;
  /** Wall-clock ms (epoch) before which a majority was confirmed to hold; a hint across machines. */
  readonly expiresAt: number;
}

/** A quorum lock held on a majority of its databases. */
export interface HeldQuorumLock extends AsyncDisposableHold {
  readonly name: string;
  /** Fencing token: strictly increasing across grants of this name, whatever majority granted them. */
  readonly fence: number;
  /** Aborts (reason: `LeaseLostError`) when the validity runs out unconfirmed or a majority lost the hold. */
  readonly signal: AbortSignal;
  /** Lease length this hold was granted or last extended with. */
  readonly leaseMs: number;
  /** Validity left on this process' monotonic clock, ms (lease − elapsed − drift); 0 once lost. */
  readonly remainingMs: number;
  /** Releases on every database. `NotHeldError` when a majority no longer held it, `QuorumError` when too few answered. */
  release(): Promise<void>;
  /** Sets the lease to `ms` on every database; needs a majority (`QuorumError` otherwise, `NotHeldError` when lost). */
  extend(ms: number): Promise<void>;
  toJSON(): SerializedQuorumLease;
}
