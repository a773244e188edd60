import { now } from "../engine/clock.ts";
import type { Keeper } from "./keeper.ts";
import type { LeaseState } from "./lease-state.ts";

/** What a kept-alive lease needs from its primitive: one renewal request and its serialised form. */
export interface Renewable {
  readonly name: string;
  readonly lease: LeaseState;
  /** The lease each renewal asks for (changes when the holder calls `extend`). */
  leaseMs(): number;
  /** Monotonic ms when the hold started, for `maxHoldMs`. */
  readonly startedAt: number;
  /** Stop renewing this long after `startedAt`, so a stuck holder cannot hold forever. */
  readonly maxHoldMs: number | undefined;
  /**
   * One renewal of `leaseMs`; `renewed: false` when the server no longer has the hold.
   * `leaseConfirmed`: the renewal has moved the lease's deadline itself (versioned renewals).
   */
  extend(leaseMs: number): Promise<{ renewed: boolean; sentAt: number; leaseConfirmed?: boolean }>;
  serialize(): unknown;
  onRenewed(leaseMs: number): void;
}

/** Hands `target` to the keeper: renew every lease/3 until `stop` aborts or the lease ends. */
export function keepRenewing(keeper: Keeper, target: Renewable, stop: AbortSignal): void {
  keeper.keep({
    name: target.name,
    intervalMs: Math.max(1, Math.floor(target.leaseMs() / 3)),
    signal: stop,
    lease: () => target.serialize(),
    renew: () => renewOnce(target),
    handedOver: () => {
      target.lease.deadlineReason = "taken-over";
    },
  });
}

/**
 * One keeper renewal, with the lease rules of the Lock: near `maxHoldMs` the last renewal asks
 * only for what is left (and the deadline then reports "max-hold"); a renewal that finds the hold
 * gone loses the lease at once; a confirmed one moves the local deadline.
 */
export async function renewOnce(target: Renewable): Promise<"renewed" | "stop"> {
  const { lease } = target;
  if (!lease.active) return "stop";
  const full = target.leaseMs();
  let leaseMs = full;
  if (target.maxHoldMs !== undefined) {
    const left = target.startedAt + target.maxHoldMs - now();
    if (left <= 0) {
      lease.deadlineReason = "max-hold";
      return "stop";
    }
    leaseMs = Math.min(leaseMs, Math.ceil(left));
    if (leaseMs < full) lease.deadlineReason = "max-hold";
  }
  const result = await target.extend(leaseMs);
  if (!lease.active) return "stop";
  if (!result.renewed) {
    lease.lose("gone");
    return "stop";
  }
  if (result.leaseConfirmed !== true) lease.confirm(result.sentAt, leaseMs);
  target.onRenewed(leaseMs);
  return leaseMs < full ? "stop" : "renewed";
}
