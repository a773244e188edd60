import type { AsyncDisposableHold } from "../disposable.ts";
/** A multi-lock's lease in a form another invocation or a keeper can `resume()` to extend or release it. */
export interface SerializedMultiLease {
  readonly v: 1;
  readonly kind: "multi-lock";
  readonly prefix: string;
  /** In acquisition order (see `MultiLock.names`). */
  readonly names: readonly string[];
  /** One fence per name, in the order of `names`. */
  readonly fences: readonly number[];
  readonly owner: string;
  readonly leaseMs: number;
  /** Wall-clock ms (epoch) before which every part was confirmed to last; a hint across machines. */
  readonly expiresAt: number;
  /**
   * Each lock's lease version the hold last saw, in the order of `names` (renewals are ordered by
   * them). Absent in leases serialised before versions: a resumed hold learns them from its first
   * renewal's stale answer.
   */
  readonly versions?: readonly number[];
}

/**
 * All the names of a multi-lock, held together. Nested acquisitions on the same handle are
 * separate `HeldMultiLock`s sharing one lease.
 */
export interface HeldMultiLock extends AsyncDisposableHold {
  /** Deduplicated names, in acquisition order. */
  readonly names: readonly string[];
  /** Fencing token per name: each strictly increasing per name, as the Lock's. */
  readonly fences: Readonly<Record<string, number>>;
  /** The fence of one name. Throws `InvalidArgumentError` for a name not in this multi-lock. */
  fenceOf(name: string): number;
  /** Aborts (reason: `LeaseLostError`) when the lease on any of the names is lost. */
  readonly signal: AbortSignal;
  /** Lease length this hold was granted or last extended with. */
  readonly leaseMs: number;
  /**
   * Releases one hold level of every name. Names still held are released even when another is
   * gone; then `NotHeldError` reports the loss.
   */
  release(): Promise<void>;
  /** Sets the remaining lease of every name to `ms`. `NotHeldError` when any part is gone. */
  extend(ms: number): Promise<void>;
  toJSON(): SerializedMultiLease;
}
