import type { ServerHint } from "../wait/wait-loop.ts";

/** A busy answer as the wait loop reads it: how long the holders in the way still hold. */
export function busyHint(remainingLeaseMs: number): ServerHint {
  return {
    remainingLeaseMs: Math.max(remainingLeaseMs, 0),
    position: 0,
    meanHoldMs: 0,
    holdAgeMs: 0,
  };
}
