import { now } from "../engine/clock.ts";
import { testSeams } from "../test-seams.ts";
import type { WakeContext } from "./wait-turn.ts";

/** What every pushed direct grant says besides its primitive's own fields. */
export interface PushedGrant {
  /** Server ms when the grant was made. */
  readonly at: number;
  /** How long the grant stays reserved for its waiter unless claimed, ms. */
  readonly claimMs: number;
}

/**
 * How much of a pushed direct grant its waiter may count on when it enters on the message, or
 * why it may not: `stale`, the waiter's last busy answer came after the grant was made (it lapsed,
 * it is not ours any more); `attempt`, too little of it is left for the claim to land (claim
 * first, one round trip, and enter on its answer). The grant was made after the last busy
 * attempt was sent, so it lapses no earlier than `sentAt + claimMs` on the waiter's clock, less
 * 1% for clock-rate differences.
 */
export function pushedGrantMs(
  grant: PushedGrant,
  since: WakeContext,
): number | "stale" | "attempt" {
  // Test seam: late-grant-message.rest.test.ts shows its scenario catches this weakening.
  if (testSeams.pushedGrantFromArrival) return grant.claimMs + now() - since.sentAt;
  if (since.hint.serverMs !== undefined && grant.at < since.hint.serverMs) return "stale";
  const elapsed = now() - since.sentAt;
  const drift = 2 + Math.ceil((elapsed + grant.claimMs) / 100);
  if (grant.claimMs - drift - elapsed < 3 * since.rttMs + 20) return "attempt";
  return grant.claimMs - drift;
}

/** A message's comma-separated numbers, `count` of them, all finite; `undefined` otherwise. */
export function grantNumbers(payload: string, count: number): number[] | undefined {
  const parts = payload.split(",").map(Number);
  if (parts.length !== count || !parts.every(Number.isFinite)) return undefined;
  return parts;
}

/**
 * A claim sent in the background: `hurry()` sends a deferred one now, `cancel()` drops one not
 * sent yet (a release is on its way: a claim landing after it would find the hold gone, and say
 * the hold was lost while its release succeeds).
 */
export interface PendingClaim {
  readonly done: Promise<void>;
  hurry(): void;
  cancel(): void;
}

/**
 * When to claim a pushed grant its holder entered on, ms from now (`leftMs`: what the holder's
 * local deadline leaves of the grant). A claim serves a hold that outlives the grant; a hold
 * released first needs none, and its release is then its only request after the message (a push
 * hand-off costs a third fewer requests). So the claim waits a third of what is left, as a keeper
 * renews at a third of a lease, and never so long that less is left than twice the room a waiter
 * needs to enter on a message at all (three round trips and 20 ms, see `pushedGrantMs`). A hold
 * that asked for a lease (`leaseMs`) shorter than what is left of the grant claims at once.
 */
export function claimDelayMs(leftMs: number, rttMs: number, leaseMs = Infinity): number {
  // The caller's bound on how long the name stays taken if it dies: the claim sets it now.
  if (leaseMs < leftMs) return 0;
  return Math.max(0, Math.min(leftMs / 3, leftMs - 2 * (3 * rttMs + 20)));
}

/**
 * Turns a pushed grant its waiter entered on into a full lease: `renew` is the hold's first
 * renewal, sent once the holder has entered (starting a request takes CPU the hand-off should not
 * wait for), or, with `later`, after `later.afterMs` unless the hold ends before (`later.onEnd`:
 * released or lost, the claim has nothing left to do); `hurry()` sends it now, `cancel()` never.
 * It moves the local deadline, or loses the hold when the grant is gone. Not applied, or unknown
 * after the engine's retries, it changes nothing but is told (`failed`: the `renew-failed` event):
 * the grant's deadline ends the hold unless a renewal confirms it first. Tracked by `background`
 * (`client.settled()`); `done` never rejects.
 */
export function claimInBackground(
  background: (work: Promise<unknown>) => void,
  renew: () => Promise<unknown>,
  later: { readonly afterMs: number; onEnd(fn: () => void): void } | undefined,
  failed: (error: unknown) => void,
): PendingClaim {
  let settle: (send: boolean) => void = () => undefined;
  const turn = new Promise<boolean>((resolve) => {
    const timer = setTimeout(resolve, later === undefined ? 0 : Math.max(0, later.afterMs), true);
    settle = (send) => {
      clearTimeout(timer);
      resolve(send);
    };
    later?.onEnd(() => settle(false));
  });
  const done = (async () => {
    if (!(await turn)) return;
    try {
      await renew();
    } catch (error) {
      // Told (`renew-failed`); the grant's deadline guards the hold.
      failed(error);
    }
  })();
  background(done);
  return { done, hurry: () => settle(true), cancel: () => settle(false) };
}
