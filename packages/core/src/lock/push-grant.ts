import { now } from "../engine/clock.ts";
import { renewFailed } from "../lease/hold-lease.ts";
import {
  claimDelayMs,
  claimInBackground,
  grantNumbers,
  pushedGrantMs,
} from "../wait/pushed-grant.ts";
import { grantStreamState, grantSubscribe } from "../wait/shared-grant-stream.ts";
import { PushStream } from "../wait/push-stream.ts";
import type { WakeContext, WakeParams } from "../wait/wait-loop.ts";
import { callsOf } from "./calls.ts";
import { inFlight, trackClaim } from "./acquire-tracking.ts";
import type { HeldLockView } from "./held-lock.ts";
import type { LockHoldState } from "./hold-state.ts";
import type { LockRef } from "./lock-ref.ts";

/** A direct grant as announced on the waiter's channel: `fence,server ms,claim window ms`. */
interface GrantMessage {
  readonly fence: number;
  readonly at: number;
  readonly claimMs: number;
}

type Adopt = (grant: {
  fence: number;
  sentAt: number;
  pttl: number;
  version: number;
}) => HeldLockView;

/**
 * Push for a lock handle: listen on the owner's grant channel. The release that hands the lock
 * to this waiter publishes the grant, and the waiter enters on the message — one trip after the
 * release, where a re-acquire would cost two — then claims it (the grant becomes a full lease)
 * in the background once the hold outlives a third of the grant; a hold released before never
 * claims. Undefined when the backend has no push or the scripts publish no grants.
 */
export function lockWake(
  ref: LockRef,
  holds: Map<number, LockHoldState>,
  adopt: Adopt,
): WakeParams<HeldLockView> | undefined {
  const subscribe = grantSubscribe(ref.ctx.backend, ref.keys.channelPrefix);
  const mode = callsOf(ref).grantPush;
  if (subscribe === undefined || mode === undefined) return undefined;
  // Readers never queue: a release they wait for is told on the name's channel, not a grant.
  if (mode === "wake") {
    const channel = ref.keys.channelPrefix;
    return { channel, open: () => new PushStream(subscribe, channel), unqueued: true };
  }
  const channel = ref.keys.channelPrefix + ref.owner;
  return {
    channel,
    open: () => new PushStream(subscribe, channel),
    shared: grantStreamState(ref.ctx.backend, ref.keys.channelPrefix),
    onMessage: (payload, since) => enterOnGrant(ref, holds, adopt, payload, since),
  };
}

function enterOnGrant(
  ref: LockRef,
  holds: Map<number, LockHoldState>,
  adopt: Adopt,
  payload: string,
  since: WakeContext,
) {
  const grant = parseGrant(payload);
  if (grant === undefined) return "attempt";
  const room = pushedGrantMs(grant, since);
  if (room === "stale") return "stale";
  // Only an extend that claims a grant lets the waiter enter on the message, and a handle with a
  // second acquire running must let the server count both. An owner other handles share asks:
  // another's leave in flight would take an unclaimed grant from under it (see `trackUndo`).
  if (
    room === "attempt" ||
    ref.ownerShared === true ||
    callsOf(ref).grantPush !== "enter" ||
    (inFlight.get(holds) ?? 0) > 1 ||
    holds.has(grant.fence)
  )
    return "attempt";
  // A direct grant has no lease version yet (0): the claim is its first renewal.
  const view = adopt({ fence: grant.fence, sentAt: since.sentAt, pttl: room, version: 0 });
  const hold = holds.get(grant.fence);
  if (hold) {
    const afterMs = claimDelayMs(since.sentAt + room - now(), since.rttMs, hold.leaseMs);
    deferClaim(ref, holds, hold, afterMs);
  }
  return { granted: view };
}

/**
 * The claim of an entered grant, deferred until the hold outlives a third of the grant (none when
 * released before: a release drops it as it starts), tracked per handle: a nested acquire has it
 * sent at once and waits for it.
 */
function deferClaim(
  ref: LockRef,
  holds: Map<number, LockHoldState>,
  hold: LockHoldState,
  afterMs: number,
): void {
  const claim = claimInBackground(
    (work) => ref.ctx.background(work),
    // A renewal since (the holder's extend, the keeper) claimed it already: the claim would only
    // undo that extend's lease; a keeper that took the hold over renews it there. It asks for the
    // lease the hold has now.
    async () => {
      if (hold.version === 0 && hold.lease.deadlineReason !== "taken-over")
        await hold.renew(hold.leaseMs);
    },
    { afterMs, onEnd: (fn) => hold.lease.onEnd(fn) },
    renewFailed({ ctx: ref.ctx, name: ref.name, fence: hold.fence }),
  );
  trackClaim(holds, hold, claim);
}

function parseGrant(payload: string): GrantMessage | undefined {
  const parts = grantNumbers(payload, 3);
  if (parts === undefined) return undefined;
  const [fence, at, claimMs] = parts as [number, number, number];
  return claimMs > 0 ? { fence, at, claimMs } : undefined;
}
