import { grantNumbers, pushedGrantMs } from "../wait/pushed-grant.ts";
import { grantSubscribe } from "../wait/shared-grant-stream.ts";
import type { WakeContext, WakeParams } from "../wait/wait-loop.ts";
import { callsOf } from "./calls.ts";
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

// Per handle (keyed by its map of holds): acquires in flight, and early grants not yet claimed.
const inFlight = new WeakMap<Map<number, LockHoldState>, number>();
const unclaimed = new WeakMap<Map<number, LockHoldState>, Set<Promise<void>>>();

/**
 * Marks an acquire on this handle as running; returns the function that ends it. A nested
 * acquire first waits for the claim of an early grant: reaching the server before it, it would
 * take the unclaimed grant as its own claim, and two holds would share a count of one.
 */
export async function beginAcquire(holds: Map<number, LockHoldState>): Promise<() => void> {
  const pending = unclaimed.get(holds);
  if (pending && pending.size > 0) await Promise.allSettled([...pending]);
  inFlight.set(holds, (inFlight.get(holds) ?? 0) + 1);
  return () => inFlight.set(holds, (inFlight.get(holds) ?? 1) - 1);
}

/**
 * Push for a lock handle: listen on the owner's grant channel. The release that hands the lock
 * to this waiter publishes the grant, and the waiter enters on the message — one trip after the
 * release, where a re-acquire would cost two — then claims it (the grant becomes a full lease)
 * in the background. Undefined when the backend has no push or the scripts publish no grants.
 */
export function lockWake(
  ref: LockRef,
  holds: Map<number, LockHoldState>,
  leaseMs: number,
  adopt: Adopt,
): WakeParams<HeldLockView> | undefined {
  const subscribe = grantSubscribe(ref.ctx.backend, ref.keys.channelPrefix);
  const mode = callsOf(ref).grantPush;
  if (subscribe === undefined || mode === undefined) return undefined;
  // Readers never queue: a release they wait for is told on the name's channel, not a grant.
  if (mode === "wake") return { channel: ref.keys.channelPrefix, subscribe, unqueued: true };
  return {
    channel: ref.keys.channelPrefix + ref.owner,
    subscribe,
    onMessage: (payload, since) => enterOnGrant(ref, holds, leaseMs, adopt, payload, since),
  };
}

function enterOnGrant(
  ref: LockRef,
  holds: Map<number, LockHoldState>,
  leaseMs: number,
  adopt: Adopt,
  payload: string,
  since: WakeContext,
) {
  const grant = parseGrant(payload);
  if (grant === undefined) return "attempt";
  const room = pushedGrantMs(grant, since);
  if (room === "stale") return "stale";
  // Only an extend that claims a grant lets the waiter enter on the message, and a handle with a
  // second acquire running must let the server count both.
  if (
    room === "attempt" ||
    callsOf(ref).grantPush !== "enter" ||
    (inFlight.get(holds) ?? 0) > 1 ||
    holds.has(grant.fence)
  )
    return "attempt";
  // A direct grant has no lease version yet (0): the claim is its first renewal.
  const view = adopt({ fence: grant.fence, sentAt: since.sentAt, pttl: room, version: 0 });
  const hold = holds.get(grant.fence);
  if (hold) claimInBackground(ref, holds, hold, leaseMs);
  return { granted: view };
}

/** Turns the entered grant into a full lease; until it lands, the grant's deadline guards the hold. */
function claimInBackground(
  ref: LockRef,
  holds: Map<number, LockHoldState>,
  hold: LockHoldState,
  leaseMs: number,
): void {
  const claim = (async () => {
    // Let the holder enter first: starting a request takes CPU the hand-off should not wait for.
    await new Promise((resolve) => setTimeout(resolve, 0));
    try {
      // The renewal moves the local deadline, or loses the hold when the grant is gone.
      await hold.renew(leaseMs);
    } catch {
      // Not applied, or unknown after the engine's retries: the grant's deadline ends the hold
      // unless a renewal confirms it first.
    }
  })();
  const pending = unclaimed.get(holds) ?? new Set();
  unclaimed.set(holds, pending);
  pending.add(claim);
  void claim.finally(() => pending.delete(claim));
  ref.ctx.background(claim);
}

function parseGrant(payload: string): GrantMessage | undefined {
  const parts = grantNumbers(payload, 3);
  if (parts === undefined) return undefined;
  const [fence, at, claimMs] = parts as [number, number, number];
  return claimMs > 0 ? { fence, at, claimMs } : undefined;
}
