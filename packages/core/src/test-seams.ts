/**
 * Test-only seams: each weakens one rule of the protocol, so the adversarial campaign can prove
 * its checker sees that rule broken (campaign/src/adversary/mutations/). All are off unless a
 * test sets them; nothing here is exported from the package's entry points, and no option of
 * `createClient` reaches them. Each hook sits at the one line it weakens.
 */
export const testSeams: {
  /** Accept any `operationRecordTtlMs` ≥ 1, skipping its floor (finding 6 of issue 13). */
  acceptShortRecordTtl?: boolean;
  /** `extend(ms)` leaves the keeper renewing at a third of the first lease (finding 7). */
  keeperIntervalFromFirstLease?: boolean;
  /** A hold's renewals are not queued: a keeper renewal and `extend` may be in flight at once. */
  concurrentRenewals?: boolean;
  /** `resume()` trusts the carried wall-clock `expiresAt` as confirmed (no clock-error discount). */
  resumeTrustsExpiresAt?: boolean;
  /** `OutcomeUnknownError` is thrown at once, before the deadline has surely passed at the server. */
  unknownBeforeDeadline?: boolean;
  /**
   * Both semaphores' waiters sleep as if no claim window bounded them (finding 8): a head that
   * sleeps past its direct grant's claim window loses it and re-queues at the tail.
   */
  waiterIgnoresClaimWindow?: boolean;
  /**
   * Names, prefixes and owner ids are not checked for well-formed Unicode: a lone surrogate then
   * becomes U+FFFD on the wire, and `x\uD800`, `x\uDFFF` and `x\uFFFD` share keys (finding 5).
   */
  acceptIllFormedNames?: boolean;
  /**
   * The client never compares grant epochs: it sends 0 as the epoch it has seen, so no script
   * finds the data set went back, and a rollback goes undetected (finding 3).
   */
  ignoreRollback?: boolean;
  /** `initialize()` reports `noeviction` and emits no `eviction-policy` event (finding 4). */
  hideEvictionPolicy?: boolean;
  /**
   * A pushed grant is counted from its message's arrival, and never found stale: a message that
   * comes late makes its waiter enter on a grant that lapsed, or hold past its lapse.
   */
  pushedGrantFromArrival?: boolean;
  /**
   * A renewal that fails in the background (the keeper's, a pushed grant's claim) is not told:
   * no `renew-failed` event, so a failure that never reached Redis surfaces nowhere.
   */
  renewFailuresUntold?: boolean;
} = {};
