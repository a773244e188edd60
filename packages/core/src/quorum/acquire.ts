import { AbortedError, QuorumError } from "../errors.ts";
import { completeGrant } from "../lease/complete-grant.ts";
import type { ResolvedHoldOptions } from "../lease/hold-options.ts";
import { waitLoop, type ServerHint } from "../wait/wait-loop.ts";
import {
  attemptQuorum,
  releaseEverywhere,
  type QuorumFailure,
  type QuorumGrant,
} from "./attempt.ts";
import { HeldQuorumLockView } from "./held-quorum-lock.ts";
import { QuorumHoldState } from "./hold-state.ts";
import { timeoutFor, type QuorumRef } from "./quorum-ref.ts";

/**
 * Attempts until granted or the budget ends, sleeping between attempts with the client's wait
 * strategy (random jitter, as Redlock's retry delay). Contention ends as `null` (the caller
 * throws `AcquireTimeoutError`); a quorum that could not be reached ends as `QuorumError`.
 */
export async function acquireQuorum(
  ref: QuorumRef,
  opts: ResolvedHoldOptions,
): Promise<{
  held: HeldQuorumLockView | null;
  attempts: number;
  waitedMs: number;
  /** The last busy answer (the shortest remaining lease among busy databases), on timeout. */
  hint?: ServerHint | undefined;
}> {
  const { ctx } = ref;
  if (opts.signal?.aborted)
    throw new AbortedError(`acquire quorum lock "${ref.name}"`, opts.signal.reason);
  let last: QuorumFailure | undefined;
  // An attempt is a round on every database: the wait budgets for the round's timeout.
  const policy = { ...ctx.policy, requestTimeoutMs: timeoutFor(ref, opts.leaseMs) };
  const result = await waitLoop<QuorumGrant>({
    ctx: { ...ctx, policy },
    name: ref.name,
    waitMs: opts.waitMs,
    signal: opts.signal,
    attempt: async () => {
      const outcome = await attemptQuorum(ref, opts.leaseMs);
      if ("failed" in outcome) {
        last = outcome.failed;
        const hint = { remainingLeaseMs: last.pttl, position: 0, meanHoldMs: 0, holdAgeMs: 0 };
        return { busy: last.quarantined ? { ...hint, reason: "quarantine" as const } : hint };
      }
      if (opts.signal?.aborted) {
        // Granted after the caller gave up: nobody will use it.
        await releaseEverywhere(
          ref,
          outcome.granted.token,
          timeoutFor(ref, opts.leaseMs),
          outcome.granted.deadlines,
        );
        throw new AbortedError(`acquire quorum lock "${ref.name}"`, opts.signal.reason);
      }
      return { granted: outcome.granted };
    },
    leave: () => undefined,
  });
  if (!result.granted) {
    if (last && last.kind !== "busy")
      throw new QuorumError(ref.name, "acquire", last.kind, ref.majority, last.answers);
    const { attempts, waitedMs, hint } = result;
    return { held: null, attempts, waitedMs, hint };
  }
  const grant = result.granted;
  const hold = new QuorumHoldState(ref, {
    token: grant.token,
    fence: grant.fence,
    sentAt: grant.startedAt,
    // Valid from the attempt's start on every database that granted (Redlock's validity).
    validMs: ref.dbs.map((db) => (grant.grantedOn.includes(db.index) ? grant.validMs : 0)),
    deadlines: grant.deadlines,
    leaseMs: opts.leaseMs,
    keepAlive: opts.keepAlive,
    maxHoldMs: opts.maxHoldMs,
  });
  const view = new HeldQuorumLockView(hold);
  await completeGrant(ctx, {
    name: ref.name,
    owner: grant.token,
    fence: grant.fence,
    reentrant: false,
    waitedMs: result.waitedMs,
    attempts: result.attempts,
    keeper: { start: () => hold.startKeeping(), giveBack: () => view.release() },
  });
  return {
    held: view,
    attempts: result.attempts,
    waitedMs: result.waitedMs,
  };
}
