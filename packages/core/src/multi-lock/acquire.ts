import { AbortedError } from "../errors.ts";
import { completeGrant } from "../lease/complete-grant.ts";
import { grantStreamState, grantSubscribe } from "../wait/shared-grant-stream.ts";
import { PushStream } from "../wait/push-stream.ts";
import { waitLoop, type ServerHint, type WakeParams } from "../wait/wait-loop.ts";
import { attemptAll, leaveInBackground, type AttemptWait, type MultiGrant } from "./attempt.ts";
import { HeldMultiLockView } from "./held-multi-lock.ts";
import { MultiLockHoldState } from "./hold-state.ts";
import type { MultiRef } from "./multi-ref.ts";
import type { ResolvedHoldOptions } from "../lease/hold-options.ts";

/**
 * Acquire all names within one wait budget, by the shared wait loop. A waiter queues at its first
 * group when that is one name, as a Lock waiter would (see `attemptAll`): the release hands it
 * that name and tells it on the name's channel, and it attempts at once, asking every group
 * together. A group of several names never queues (its waiter polls): a grant of one of its
 * names alone would be a partial hold.
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
  const wait: AttemptWait = { returnWithinMs: 0, queuedAt: undefined, granted: false };
  const result = await waitLoop<MultiGrant>({
    ctx,
    name: ref.label,
    waitMs: opts.waitMs,
    signal: opts.signal,
    // a queued waiter's sleeps stay inside the claim window of a grant it may be handed
    claimWindowMs: ctx.claimWindowMs,
    wake: multiWake(ref, wait),
    attempt: (queue, returnWithinMs, deadline) => {
      const w = { ...wait, returnWithinMs };
      wait.granted = false;
      const outcome = attemptAll(ref, opts.leaseMs, opts.signal, deadline, queue ? w : undefined);
      return outcome.finally(() => (wait.queuedAt = w.queuedAt));
    },
    leave: () => {
      if (wait.queuedAt !== undefined) leaveInBackground(ref, wait.queuedAt);
      wait.queuedAt = undefined;
    },
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

/**
 * Push for a multi-lock whose first group is one name (where its waiter queues): listen for that
 * name's grant on the owner's channel. A message makes the waiter attempt at once, asking every
 * group together, since it holds the first (`AttemptWait.granted`).
 */
function multiWake(ref: MultiRef, wait: AttemptWait): WakeParams<MultiGrant> | undefined {
  const prefix = ref.groups[0]?.channelPrefix;
  if (prefix === undefined) return undefined;
  const subscribe = grantSubscribe(ref.ctx.backend, prefix);
  if (subscribe === undefined) return undefined;
  const shared = grantStreamState(ref.ctx.backend, prefix);
  const onMessage = () => {
    wait.granted = true;
    return "attempt" as const;
  };
  const channel = prefix + ref.owner;
  return { channel, open: () => new PushStream(subscribe, channel), shared, onMessage };
}
