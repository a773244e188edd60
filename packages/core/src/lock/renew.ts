import { now } from "../engine/clock.ts";
import { newOperation } from "../engine/operation.ts";
import { AbortedError, OutcomeUnknownError } from "../errors.ts";
import { opsOf } from "./flavor.ts";
import type { Hold } from "./hold.ts";

export type RenewOutcome = "renewed" | "stale" | "gone";

/**
 * One renewal of a hold, ordered by the lease version (the caller, `Hold.renew`, runs one at a
 * time). While it is in doubt the local deadline is no later than what it would set (it may
 * shorten the lease); once confirmed, every earlier renewal is dead. A stale answer (another
 * renewal of this lease applied first: a keeper elsewhere, a resume) gives the server's version
 * and lease; the renewal goes again once with it.
 */
export async function renewHold(
  hold: Hold,
  leaseMs: number,
  signal?: AbortSignal,
): Promise<RenewOutcome> {
  const { ref, lease } = hold;
  for (let tries = 0; tries < 2; tries++) {
    const sentAt = now();
    // A copy applied after the local deadline could not help: the holder has given up by then.
    const left = Math.floor(lease.deadline - sentAt);
    // A resumed hold's local lease says nothing of the server's until a renewal confirms it, nor
    // after one did if it had already ended locally: the retry window bounds those renewals.
    const unbounded = hold.provisional || (hold.resumed && !lease.active);
    const budgetMs = unbounded ? ref.ctx.policy.retryWindowMs : left;
    if (budgetMs <= 0) return "gone";
    // Cancelled before it was sent (the hold ended, or `extend(ms)` restarted the keeper while
    // this renewal was queued): it cannot apply, so it must not bound the deadline.
    if (signal?.aborted) throw new AbortedError(`extend "${ref.name}"`, signal.reason);
    const doubt = lease.inDoubt(sentAt, leaseMs);
    let r;
    try {
      r = await opsOf(ref).extend(ref, {
        fence: hold.fence,
        version: hold.version,
        leaseMs,
        op: newOperation(),
        budgetMs,
        signal,
      });
    } catch (error) {
      // Known not to have applied (settled, refused): it no longer bounds the deadline. An
      // aborted one (the hold ended, or the keeper restarted) may have: it stays in doubt.
      if (!(error instanceof OutcomeUnknownError || error instanceof AbortedError)) doubt.resolve();
      throw error;
    }
    if (r.status === "gone") {
      doubt.resolve();
      lease.lose("gone");
      return "gone";
    }
    hold.version = Math.max(hold.version, r.version);
    if (r.status === "renewed") {
      hold.provisional = false;
      lease.renewed(sentAt, leaseMs);
      return "renewed";
    }
    // The server's lease is what the renewal that won set; ours (older versions) are all dead.
    lease.renewed(sentAt, Math.max(r.pttl, 0));
  }
  return "stale";
}
