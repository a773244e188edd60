/**
 * Defaults of the Durable Object keeper. Alarms are at-least-once and "usually a few ms late, up
 * to a minute during failover", so a kept lease must outlive a renewal that comes 60 s late:
 * renewing every lease/3 = 40 s, a late alarm still renews at 100 s, 20 s before the 120 s lease
 * would run out (room for the alarm's own retries, which start 2 s after a failure).
 */
export const DEFAULT_LEASE_KEEPER = Object.freeze({
  /** @default 120_000 */
  leaseMs: 120_000,
  /** An alarm this much before its time counts as on time (clock granularity). @default 5 */
  earlyToleranceMs: 5,
  /** Longest keeper lease accepted: a day; `maxHoldMs` bounds the whole hold anyway. */
  maxLeaseMs: 86_400_000,
});
