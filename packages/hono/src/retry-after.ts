import type { Lock } from "@edgelock/core/lock";

/**
 * What the lock's busy answer said (`WaitHint` fields), when the refused acquire's error carries
 * it as `hint`. Times in ms; 0 means unknown.
 */
export interface BusyHint {
  /** The holder's remaining lease. */
  readonly remainingLeaseMs: number;
  /** The refused waiter's 1-based place in the queue (0: not queued). */
  readonly position: number;
  /** Server-measured mean hold time of this name. */
  readonly meanHoldMs: number;
  /** How long the current hold has lasted. */
  readonly holdAgeMs: number;
  /** Server-measured mean hand-off cycle (one per waiter ahead); the mean hold when absent. */
  readonly meanCycleMs?: number;
}

/** The busy answer carried by an `AcquireTimeoutError`, if the core attached one. */
export function busyHintOf(error: unknown): BusyHint | undefined {
  const hint = (error as { hint?: Partial<BusyHint> } | null)?.hint;
  if (typeof hint !== "object" || hint === null) return undefined;
  const ms = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0);
  return {
    remainingLeaseMs: ms(hint.remainingLeaseMs),
    position: ms(hint.position),
    meanHoldMs: ms(hint.meanHoldMs),
    holdAgeMs: ms(hint.holdAgeMs),
    ...(hint.meanCycleMs !== undefined && { meanCycleMs: ms(hint.meanCycleMs) }),
  };
}

/**
 * How long until the lock is likely free for a new request, in ms. From the busy answer when
 * there is one: the rest of a typical hold (mean hold − this hold's age), plus one hand-off cycle
 * per waiter queued ahead, never more than the holder's remaining lease allows for a lease that
 * is not renewed. Otherwise the holder's remaining lease (`lock.remainingMs()`, one request):
 * the latest the current hold can end if its keeper stops.
 */
export async function expectedFreeInMs(lock: Lock, error: unknown): Promise<number> {
  const hint = busyHintOf(error);
  if (hint && hint.meanHoldMs > 0) {
    const ahead = Math.max(0, hint.position - 1) * (hint.meanCycleMs || hint.meanHoldMs);
    const rest = Math.max(0, hint.meanHoldMs - hint.holdAgeMs);
    const current = hint.remainingLeaseMs > 0 ? Math.min(rest, hint.remainingLeaseMs) : rest;
    return current + ahead;
  }
  if (hint && hint.remainingLeaseMs > 0) return hint.remainingLeaseMs;
  return lock.remainingMs().catch(() => 1_000);
}
