import { now } from "../engine/clock.ts";
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
 * Turns a pushed grant its waiter entered on into a full lease: `renew` is the hold's first
 * renewal, sent once the holder has entered (starting a request takes CPU the hand-off should not
 * wait for). It moves the local deadline, or loses the hold when the grant is gone. Not applied,
 * or unknown after the engine's retries, it changes nothing: the grant's deadline ends the hold
 * unless a renewal confirms it first. Tracked by `background` (`client.settled()`); the promise
 * it returns never rejects.
 */
export function claimInBackground(
  background: (work: Promise<unknown>) => void,
  renew: () => Promise<unknown>,
): Promise<void> {
  const claim = (async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    try {
      await renew();
    } catch {
      // see above: the grant's deadline guards the hold
    }
  })();
  background(claim);
  return claim;
}
