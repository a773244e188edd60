import type { LeaseLossReason } from "./errors.ts";

/**
 * What the engine reports through `onEvent`: enough to wire logs or OpenTelemetry without
 * depending on either. Owner ids are masked; errors are the typed errors also thrown.
 */
export type LockEvent =
  | {
      type: "acquired";
      name: string;
      owner: string;
      fence: number;
      reentrant: boolean;
      waitedMs: number;
      attempts: number;
    }
  | {
      type: "waited";
      name: string;
      attempt: number;
      sleepMs: number;
      position: number;
      remainingLeaseMs: number;
    }
  | { type: "renewed"; name: string; fence: number; leaseMs: number }
  /**
   * A renewal sent in the background failed: the keeper's (it tries again sooner) or the claim
   * of a pushed grant its holder entered on. The lease keeps the deadline it had, and
   * `held.signal` aborts if that passes unconfirmed. A renewal that fails after the lease ran
   * out is told too, after `lost`, and so is one that fails while the holder releases; one that
   * the hold's end cancelled is not. (`extend()` throws its failure instead.)
   */
  | { type: "renew-failed"; name: string; fence: number; error: Error }
  | { type: "lost"; name: string; fence: number; reason: LeaseLossReason; error: Error }
  | { type: "released"; name: string; fence: number; remainingCount: number }
  | { type: "release-failed"; name: string; fence: number; error: Error }
  | { type: "retried"; operation: string; attempt: number; error: Error }
  | { type: "outcome-unknown"; operation: string; error: Error }
  /**
   * Retries ran out and one settle request decided the outcome: `applied` when a copy had run
   * (its recorded answer is what the call returns), else the operation was tombstoned unapplied.
   * `error` is the failure that left it in doubt.
   */
  | { type: "settled"; operation: string; applied: boolean; error: Error }
  | { type: "abandoned"; name: string; releasedSomething: boolean }
  /**
   * Work sent in the background failed: the leave of a wait that gave up (after a timeout or an
   * abort), the undo of a claim, a join or a multi-lock's partial take, a retried release. What it
   * was to give back lapses on its own (a queue place at its declared poll deadline, a grant at
   * its claim window, a lease at its deadline); `error` names the call.
   */
  | { type: "background-failed"; error: Error }
  /** A grant was refused by the restart quarantine: Redis lost its data (or this is its first use). */
  | { type: "quarantined"; name: string; remainingMs: number }
  /**
   * A script found the restart quarantine's grant epoch lower than one this client saw before:
   * Redis went back to an older state (a restart from a snapshot, AOF `everysec`, a restore, a
   * failover) and lost the newest grants. The script quarantined; every hold this client knew of
   * is lost (`lost` with reason `rolled-back`). Only with the quarantine on, and only by a client
   * that lives across requests (docs/guarantees.md).
   */
  | { type: "rolled-back"; operation: string; foundEpoch: number; holdsLost: number }
  /**
   * `client.initialize()` read an eviction policy other than `noeviction` (once per client):
   * at its `maxmemory` limit Redis may evict a live lock's key, and nothing then keeps mutual
   * exclusion (docs/failure-modes.md). `maxmemoryBytes` 0: no limit is set yet.
   */
  | { type: "eviction-policy"; policy: string; maxmemoryBytes?: number };

export type EventSink = (event: LockEvent) => void;

/** An `onEvent` hook must never break a lock operation. */
export function safeSink(onEvent: EventSink | undefined): EventSink {
  if (!onEvent) return () => undefined;
  return (event) => {
    try {
      onEvent(event);
    } catch {
      // A throwing logger is the caller's bug; the lock must keep its promises regardless.
    }
  };
}
