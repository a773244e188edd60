import { now } from "../engine/clock.ts";
import { newOperation, oncePerOperation, type Operation } from "../engine/operation.ts";
import { AbortedError, OutcomeUnknownError } from "../errors.ts";
import { completeGrant } from "../lease/complete-grant.ts";
import type { ResolvedHoldOptions } from "../lease/hold-options.ts";
import { waitLoop, type AttemptOutcome, type ServerHint } from "../wait/wait-loop.ts";
import { HeldLockView } from "./held-lock.ts";
import { LockHoldState } from "./hold-state.ts";
import { callsOf } from "./calls.ts";
import { beginAcquire, trackUndo } from "./acquire-tracking.ts";
import type { LockRef } from "./lock-ref.ts";

/**
 * Acquire with waiting. Each attempt is a fresh operation, whose copies may apply only while the
 * caller still waits (its deadline never lies beyond the wait, plus one request for the last
 * attempt); when the caller gives up (abort, timeout, unknown outcome) the last attempt is
 * abandoned in the background, which leaves the queue and releases whatever that attempt may have
 * taken.
 */
export async function acquireLock(
  ref: LockRef,
  holds: Map<number, LockHoldState>,
  opts: ResolvedHoldOptions,
): Promise<AcquireLockResult> {
  const { ctx } = ref;
  if (opts.signal?.aborted) throw new AbortedError(`acquire "${ref.name}"`, opts.signal.reason);
  let lastOp: Operation | undefined;
  // Set once an attempt that may queue is sent (see AcquireParams.queuedBefore).
  let queuedBefore = false;
  const startedAt = now();
  const abandon = oncePerOperation((op) => {
    const work = callsOf(ref)
      .abandon(ref, op)
      .then((releasedSomething) =>
        ctx.emit({ type: "abandoned", name: ref.name, releasedSomething }),
      );
    ctx.background(work);
    trackUndo(holds, work);
  });
  const attempt = async (
    queue: boolean,
    returnWithinMs: number,
    deadline: number,
  ): Promise<AttemptOutcome<Granted>> => {
    const op = (lastOp = newOperation());
    const waitLeft = Math.max(0, startedAt + opts.waitMs - now());
    const mayBeQueued = queuedBefore;
    if (queue) queuedBefore = true;
    try {
      const { reply, sentAt } = await callsOf(ref).acquire(ref, {
        leaseMs: opts.leaseMs,
        queue,
        queuedBefore: mayBeQueued,
        returnWithinMs,
        op,
        budgetMs: Math.ceil(waitLeft) + ctx.policy.requestTimeoutMs,
        signal: opts.signal,
        deadline,
      });
      if (reply.status === "busy") return { busy: reply.hint };
      if (reply.status === "abandoned")
        return { busy: { remainingLeaseMs: 0, position: 0, meanHoldMs: 0, holdAgeMs: 0 } };
      const grant = { fence: reply.fence, sentAt, pttl: reply.pttl, version: reply.version };
      const view = adopt(ref, holds, opts, grant);
      return { granted: { view, reentrant: reply.status === "reentered" } };
    } catch (error) {
      // The request may have run: undo it in the background rather than leak a hold.
      if (error instanceof AbortedError || error instanceof OutcomeUnknownError) abandon(op);
      throw error;
    }
  };
  // Push where the client has it (not the polling entry's) and the backend offers it.
  const wake = ctx.push?.lockWake(ref, holds, (grant) => adopt(ref, holds, opts, grant));
  const end = await beginAcquire(holds);
  const result = await waitLoop<Granted>({
    ctx,
    name: ref.name,
    waitMs: opts.waitMs,
    signal: opts.signal,
    attempt,
    leave: () => abandon(lastOp),
    claimWindowMs: ctx.claimWindowMs,
    wake: wake && {
      ...wake,
      onMessage: (payload, since) => {
        if (wake.onMessage === undefined) return "attempt";
        const action = wake.onMessage(payload, since);
        return typeof action === "string" || !("granted" in action)
          ? action
          : { granted: { view: action.granted, reentrant: false } };
      },
    },
  }).finally(end);
  if (!result.granted) {
    const { attempts, waitedMs, hint } = result;
    return { held: null, attempts, waitedMs, hint };
  }
  const { view, reentrant } = result.granted;
  const hold = holds.get(view.fence);
  await completeGrant(ctx, {
    name: ref.name,
    owner: ref.owner,
    fence: view.fence,
    reentrant,
    waitedMs: result.waitedMs,
    attempts: result.attempts,
    keeper: hold && { start: () => hold.startKeeping(), giveBack: () => view.release() },
  });
  return { held: view, attempts: result.attempts, waitedMs: result.waitedMs, hint: undefined };
}

/** The held lock, or `null` with the last busy answer (`hint`) when the wait ran out. */
export interface AcquireLockResult {
  readonly held: HeldLockView | null;
  readonly attempts: number;
  readonly waitedMs: number;
  readonly hint: ServerHint | undefined;
}

interface Granted {
  readonly view: HeldLockView;
  readonly reentrant: boolean;
}

function adopt(
  ref: LockRef,
  holds: Map<number, LockHoldState>,
  opts: ResolvedHoldOptions,
  grant: { fence: number; sentAt: number; pttl: number; version: number },
): HeldLockView {
  const existing = holds.get(grant.fence);
  if (existing && existing.lease.active) {
    existing.lease.confirm(grant.sentAt, Math.max(grant.pttl, 0));
    return new HeldLockView(existing);
  }
  // Declared first: `onEnd` may run before construction completes, and must not hit the TDZ.
  let hold: LockHoldState | undefined = undefined;
  hold = new LockHoldState(
    ref,
    {
      fence: grant.fence,
      sentAt: grant.sentAt,
      confirmedMs: grant.pttl > 0 ? grant.pttl : opts.leaseMs,
      leaseMs: opts.leaseMs,
      keepAlive: opts.keepAlive,
      maxHoldMs: opts.maxHoldMs,
      version: grant.version,
    },
    () => {
      // Deferred: this runs inside `new LockHoldState` when the grant's lease ran out before its answer came.
      queueMicrotask(() => {
        if (hold !== undefined && holds.get(grant.fence) === hold) holds.delete(grant.fence);
      });
    },
  );
  holds.set(grant.fence, hold);
  return new HeldLockView(hold);
}
