import { claimCap } from "./claim-cap.ts";
import type { WaitHint, WaitStrategy } from "./strategy.ts";

export interface JustInTimeOptions {
  /** Longest sleep; a queued waiter promises the server to poll again within it. @default 2_000 */
  readonly maxMs?: number;
  /** Bound of the first sleep while the server knows nothing yet (then doubling, full jitter). @default 20 */
  readonly baseMs?: number;
}

export const DEFAULT_JUST_IN_TIME = Object.freeze({ maxMs: 2_000, baseMs: 20 });

/**
 * The default strategy: poll when the server's hints say the lock will be ours, not on a timer.
 * The release hands the lock straight to the queue head, so a head whose poll reaches the server
 * just after the release already owns the lock: the hand-off then costs one round trip, as with
 * push. The head aims its poll at the expected release (mean hold minus the current hold's age),
 * sent one measured round trip early and set a little late, by how irregular holds are: an early
 * poll costs up to a whole round trip of idle lock, a late one only its lateness. A waiter further
 * back first arrives about half a cycle after it becomes head, so two polls serve any queue
 * length. With a push stream the poll is only a safety net, sent just inside the claim window.
 * Without hints yet (a fresh name, or a primitive that gives none): backoff with full jitter.
 */
export function justInTimeStrategy(options: JustInTimeOptions = {}): WaitStrategy {
  const { maxMs, baseMs } = { ...DEFAULT_JUST_IN_TIME, ...options };
  return {
    name: "just-in-time",
    maxDelayMs: maxMs,
    nextDelay(h) {
      const cap = Math.min(maxMs, claimCap(h));
      if (h.pushed) return cap;
      if (h.position <= 0 || h.meanHoldMs <= 0)
        return Math.min(cap, Math.random() * baseMs * 2 ** Math.min(h.attempt - 1, 16));
      return Math.min(cap, Math.max(0, pollDelay(h)));
    },
  };
}

function pollDelay(h: WaitHint): number {
  const rtt = h.rttMs ?? 0;
  const m = h.meanHoldMs;
  // σ of one hold, from its mean absolute deviation; never below what timers and the network
  // add to even the most regular hold (a millisecond, and a little of each round trip).
  const hold = Math.max(1.25 * (h.holdDevMs ?? m / 4), 1 + rtt / 20);
  // …and the waiter's own trips add theirs: a poll lands only as precisely as its round trip.
  const spread = Math.hypot(hold, 1.25 * (h.rttDevMs ?? 0));
  const rest = m - h.holdAgeMs; // server ms until the current holder is expected to let go
  if (h.position === 1) {
    // Overdue: the release may come any moment; poll at a pace set by how irregular holds are,
    // slowing down as the hold outlasts the mean (a stuck holder must not cost a poll per trip).
    if (rest <= 0) return Math.max(spread, -rest / 2, m / 8) - rtt;
    return rest - rtt + lateBias(spread, rtt);
  }
  // Further back: arrive about half a cycle after becoming head, and let that reply's fresh hold
  // age time the claiming poll. Early costs one more poll, late costs idle lock; half a cycle of
  // margin absorbs most of the drift of several holds. A cycle is counted as no longer than a
  // hold plus a well-aimed claim's lateness: a measured cycle inflated by late claims would make
  // this waiter late too, and the lateness would feed on itself.
  const cycle = Math.min(h.meanCycleMs ?? m, m + lateBias(spread, rtt) + 1);
  return rest + (h.position - 1.5) * cycle - rtt;
}

/**
 * How late to aim. Arriving early by less than a round trip costs the rest of that round trip;
 * arriving late costs the lateness. For a spread σ the balance lies near 0.8·σ·ln(rtt/σ).
 */
function lateBias(spread: number, rtt: number): number {
  if (spread <= 0 || rtt <= spread) return 0;
  return spread * 0.8 * Math.log(rtt / spread);
}
