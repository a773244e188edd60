import type { WaitHint } from "./strategy.ts";

/**
 * The longest a waiter that may be granted can sleep: it must poll before its grant lapses
 * unclaimed (finding 8 of issue 13), two round trips and a timer's slack inside the claim window.
 * The wait loop applies it to every strategy's delay, a user's own included.
 */
export function claimCap(h: Pick<WaitHint, "claimWindowMs" | "rttMs">): number {
  if (h.claimWindowMs === undefined) return Infinity;
  return Math.max(1, h.claimWindowMs - 2 * (h.rttMs ?? 0) - 20);
}
