import { AbortedError } from "../errors.ts";
import { completeGrant } from "../lease/complete-grant.ts";
import { renewFailed } from "../lease/hold-lease.ts";
import { grantStreamState, grantSubscribe } from "../wait/shared-grant-stream.ts";
import { PushStream } from "../wait/push-stream.ts";
import { claimDelayMs, claimInBackground } from "../wait/pushed-grant.ts";
import {
  waitLoop,
  type ServerHint,
  type WakeAction,
  type WakeContext,
  type WakeParams,
} from "../wait/wait-loop.ts";
import { now } from "../engine/clock.ts";
import { beginAcquire, inFlight, trackClaim, undosSettled } from "../lock/acquire-tracking.ts";
import { GrantStreams, untag } from "./grant-streams.ts";
import { joinable, LaterJoins } from "./joins.ts";
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
  const joins = joinable(ref) ? new LaterJoins(ref) : undefined;
  // The undos of this handle's earlier waits first (see `trackUndo`; they are keyed by `ref`).
  await undosSettled(ref);
  const end = await beginAcquire(holds);
  // An owner other handles share never enters unclaimed (see `HandleOwner`): it asks.
  const enterable = () => !ref.ownerShared && holds.size === 0 && inFlight.get(holds) === 1;
  let result;
  try {
    result = await waitLoop<MultiGrant>({
      ctx,
      name: ref.label,
      waitMs: opts.waitMs,
      signal: opts.signal,
      // a queued waiter's sleeps stay inside the claim window of a grant it may be handed
      claimWindowMs: ctx.claimWindowMs,
      wake: multiWake(ref, wait, joins, enterable),
      attempt: async (queue, returnWithinMs, deadline) => {
        joins?.beforeAttempt();
        const w = { ...wait, returnWithinMs };
        wait.granted = false;
        const asked = { later: false };
        try {
          const outcome = await attemptAll(
            ref,
            opts.leaseMs,
            opts.signal,
            deadline,
            queue ? w : undefined,
            asked,
          );
          // Asking a later name ends the joins. Every name taken: the grants are claimed (and the
          // waiter left those queues). Busy at a later name: that name's queue and those after it
          // still hold the waiter's joins, which no one would claim a grant of (the name reserved
          // for nothing for the claim window): leave them. Queued at the first name again, the
          // waiter joins the later ones anew, unless its grants came incomplete (`beforeAttempt`).
          if (asked.later) joins?.drop(!("granted" in outcome));
          if (w.queuedAt !== undefined) joins?.queuedAtFirst(returnWithinMs, deadline);
          return outcome;
        } catch (error) {
          if (asked.later) joins?.drop(true);
          throw error;
        } finally {
          wait.queuedAt = w.queuedAt;
        }
      },
      leave: () => {
        if (wait.queuedAt !== undefined) void leaveInBackground(ref, wait.queuedAt);
        wait.queuedAt = undefined;
        joins?.drop(true);
      },
    });
  } catch (error) {
    joins?.drop(true);
    throw error;
  } finally {
    end();
  }
  // A wait that ended without a hold leaves the later queues too (granted, nothing is left).
  joins?.drop(!result.granted);
  if (!result.granted) {
    const { attempts, waitedMs, hint } = result;
    return { held: null, attempts, waitedMs, hint };
  }
  const grant = result.granted;
  const view = adopt(ref, holds, opts, grant);
  const hold = holds.get(grant.fences.join(","));
  if (hold && grant.pushed) deferClaim(ref, holds, hold, grant.pushed.rttMs);
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
 * name's grant on the owner's channel. Without joins (`joins.ts`), a message makes the waiter
 * attempt at once, asking every group together, since it holds the first
 * (`AttemptWait.granted`). With them, it listens on every name's channel and may enter on the
 * messages alone.
 */
function multiWake(
  ref: MultiRef,
  wait: AttemptWait,
  joins: LaterJoins | undefined,
  enterable: () => boolean,
): WakeParams<MultiGrant> | undefined {
  const prefixes = ref.groups.map((g) => g.channelPrefix);
  const subscribes = prefixes.map((p) =>
    p === undefined ? undefined : grantSubscribe(ref.ctx.backend, p),
  );
  const [prefix, subscribe] = [prefixes[0], subscribes[0]];
  if (prefix === undefined || subscribe === undefined) return undefined;
  const shared = grantStreamState(ref.ctx.backend, prefix);
  const channel = prefix + ref.owner;
  if (joins === undefined || subscribes.some((s) => s === undefined)) {
    const onMessage = () => {
      wait.granted = true;
      return "attempt" as const;
    };
    return { channel, open: () => new PushStream(subscribe, channel), shared, onMessage };
  }
  const open = () => {
    joins.listen();
    return new GrantStreams(subscribes.map((s, i) => new PushStream(s!, prefixes[i]! + ref.owner)));
  };
  const onMessage = (tagged: string, since: WakeContext): WakeAction<MultiGrant> => {
    const message = untag(tagged);
    if (message === undefined) return "stale";
    const action = joins.onMessage(message.index, message.payload, since, enterable());
    wait.granted = joins.firstHeard;
    return action;
  };
  return { channel, open, shared, onMessage };
}

/**
 * The claim of a hold entered on its grant messages: its first renewal, deferred until the hold
 * outlives a third of the grants (none when released before: the release drops it as it starts),
 * tracked per handle: a nested acquire has it sent at once and waits for it.
 */
function deferClaim(
  ref: MultiRef,
  holds: Map<string, MultiLockHoldState>,
  hold: MultiLockHoldState,
  rttMs: number,
): void {
  const afterMs = claimDelayMs(hold.lease.deadline - now(), rttMs, hold.leaseMs);
  const claim = claimInBackground(
    (work) => ref.ctx.background(work),
    // A renewal since (the holder's extend, the keeper) claimed it already.
    async () => {
      if (hold.versions.every((v) => v === 0) && hold.lease.deadlineReason !== "taken-over")
        await hold.renew(hold.leaseMs);
    },
    { afterMs, onEnd: (fn) => hold.lease.onEnd(fn) },
    renewFailed({ ctx: ref.ctx, name: ref.label, fence: hold.fences[0] ?? 0 }),
  );
  trackClaim(holds, hold, claim);
}
