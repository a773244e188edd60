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
} = {};
