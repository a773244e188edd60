import { AbortedError } from "../errors.ts";
import { completeGrant } from "../lease/complete-grant.ts";
import { waitLoop, type ServerHint } from "../wait/wait-loop.ts";
import { attemptAll, type MultiGrant } from "./attempt.ts";
import { HeldMultiLockView } from "./held-multi-lock.ts";
import { MultiLockHoldState } from "./hold-state.ts";
import type { MultiRef } from "./multi-ref.ts";
import type { ResolvedHoldOptions } from "../lease/hold-options.ts";

/**
 * Acquire all names within one wait budget, by the shared wait loop. A multi-lock waiter never
 * joins the names' queues: a queued waiter is handed a lock directly, which would be a partial
 * hold while it waits for the others.
 */
export async function acquireMulti(
  ref: MultiRef,
  holds: Map<string, MultiLockHoldState>,
  opts: ResolvedHoldOptions,
): Promise<{
  held: HeldMultiLockView | null;
  attempts: number;
  waitedMs: number;
  /** The last busy answer, when the wait ran out. */
  hint?: ServerHint | undefined;
}> {
  const { ctx } = ref;
  if (opts.signal?.aborted) throw new AbortedError(`acquire ${ref.label}`, opts.signal.reason);
  const result = await waitLoop<MultiGrant>({
    ctx,
    name: ref.label,
    waitMs: opts.waitMs,
    signal: opts.signal,
    attempt: (_queue, _returnWithinMs, deadline) =>
      attemptAll(ref, opts.leaseMs, opts.signal, deadline),
    leave: () => undefined,
  });
  if (!result.granted) {
    const { attempts, waitedMs, hint } = result;
    return { held: null, attempts, waitedMs, hint };
  }
  const grant = result.granted;
  const view = adopt(ref, holds, opts, grant);
  const hold = holds.get(grant.fences.join(","));
  await completeGrant(ctx, {
    name: ref.label,
    owner: ref.owner,
    fence: grant.fences[0] ?? 0,
    reentrant: grant.reentered,
    waitedMs: result.waitedMs,
    attempts: result.attempts,
    keeper: hold && { start: () => hold.startKeeping(), giveBack: () => view.release() },
  });
  return { held: view, attempts: result.attempts, waitedMs: result.waitedMs };
}

/** A re-entry joins the existing hold of the same fences (sharing its lease); a new grant starts one. */
function adopt(
  ref: MultiRef,
  holds: Map<string, MultiLockHoldState>,
  opts: ResolvedHoldOptions,
  grant: MultiGrant,
): HeldMultiLockView {
  const id = grant.fences.join(",");
  const existing = holds.get(id);
  if (existing && existing.lease.active) {
    existing.lease.confirm(grant.sentAt, Math.max(0, grant.deadline - grant.sentAt));
    existing.learnVersions(grant.versions);
    return new HeldMultiLockView(existing);
  }
  // Declared first: `onEnd` may run before construction completes, and must not hit the TDZ.
  let hold: MultiLockHoldState | undefined = undefined;
  hold = new MultiLockHoldState(
    ref,
    {
      fences: grant.fences,
      versions: grant.versions,
      sentAt: grant.sentAt,
      deadline: grant.deadline,
      leaseMs: opts.leaseMs,
      keepAlive: opts.keepAlive,
      maxHoldMs: opts.maxHoldMs,
    },
    () => {
      // Deferred: this runs inside `new MultiLockHoldState` when the grant's lease ran out before its answer came.
      queueMicrotask(() => {
        if (hold !== undefined && holds.get(id) === hold) holds.delete(id);
      });
    },
  );
  holds.set(id, hold);
  return new HeldMultiLockView(hold);
}
