import type { ClientContext } from "../client-context.ts";
import { testSeams } from "../test-seams.ts";

/** What a serialised hold carries about its lease. */
export interface CarriedLease {
  /** Wall-clock ms (epoch) on the machine that serialised it. */
  readonly expiresAt: number;
  /** The lease its renewals asked for. */
  readonly leaseMs: number;
}

/**
 * How long a resumed hold may believe its lease before a renewal of its own confirms it: only
 * what the carried data proves, the same for every kind of hold. `expiresAt` was read on another
 * machine's wall clock, and each clock may be off by `clockErrorMs`, so twice that comes off it.
 * And no lease outlives `leaseMs` from the last renewal that set it, which ran before now: a
 * carried `expiresAt` further away than that (a clock far off, a hand-edited hold) is not believed.
 */
export function provisionalMs(
  ctx: Pick<ClientContext, "wallClock" | "clockErrorMs">,
  carried: CarriedLease,
): number {
  if (testSeams.resumeTrustsExpiresAt) return Math.max(0, carried.expiresAt - ctx.wallClock());
  const byWallClock = carried.expiresAt - ctx.wallClock() - 2 * ctx.clockErrorMs;
  return Math.max(0, Math.min(byWallClock, carried.leaseMs));
}
