import { now } from "../engine/clock.ts";
import { newOperation } from "../engine/operation.ts";
import { AbortedError, OutcomeUnknownError } from "../errors.ts";
import type { LeaseState } from "../lease/lease-state.ts";
import { extendOnce, type PermitSemaphoreRef } from "./ops.ts";

/** What a permit's renewal needs of its holder: its id, lease, and the version it last saw. */
export interface RenewablePermit {
  readonly id: string;
  readonly lease: LeaseState;
  version: number;
  /** Resumed and not yet confirmed by a renewal of its own. */
  provisional: boolean;
  readonly resumed: boolean;
}

/**
 * One renewal of a permit, ordered by its lease version (the caller runs one at a time), with the
 * Lock's rules (lock/renew.ts): while in doubt the local deadline is no later than what it would
 * set; a stale answer gives the server's version and lease, and the renewal goes again once.
 */
export async function renewPermit(
  ref: PermitSemaphoreRef,
  permit: RenewablePermit,
  leaseMs: number,
  signal?: AbortSignal,
): Promise<"renewed" | "stale" | "gone"> {
  const { lease } = permit;
  for (let tries = 0; tries < 2; tries++) {
    const sentAt = now();
    const left = Math.floor(lease.deadline - sentAt);
    const unbounded = permit.provisional || (permit.resumed && !lease.active);
    const budgetMs = unbounded ? ref.ctx.policy.retryWindowMs : left;
    if (budgetMs <= 0) return "gone";
    // Cancelled before it was sent (the permit ended, or `extend(ms)` restarted the keeper while
    // this renewal was queued): it cannot apply, so it must not bound the deadline.
    if (signal?.aborted)
      throw new AbortedError(`extend of a permit of "${ref.name}"`, signal.reason);
    const doubt = lease.inDoubt(sentAt, leaseMs);
    let r;
    try {
      const op = newOperation();
      r = await extendOnce(ref, {
        permitId: permit.id,
        version: permit.version,
        leaseMs,
        op,
        budgetMs,
        signal,
      });
    } catch (error) {
      if (!(error instanceof OutcomeUnknownError || error instanceof AbortedError)) doubt.resolve();
      throw error;
    }
    if (r.status === "gone") {
      doubt.resolve();
      lease.lose("gone");
      return "gone";
    }
    permit.version = Math.max(permit.version, r.version);
    if (r.status === "renewed") {
      permit.provisional = false;
      lease.renewed(sentAt, leaseMs);
      return "renewed";
    }
    lease.renewed(sentAt, Math.max(r.pttl, 0));
  }
  return "stale";
}
