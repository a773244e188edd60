import { now } from "../engine/clock.ts";
import { AbortedError, KeeperError } from "../errors.ts";
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
   * `signal` aborts when the hold ends: a renewal still retrying then stops at once.
   */
  extend(
    leaseMs: number,
    signal: AbortSignal,
  ): Promise<{ renewed: boolean; sentAt: number; leaseConfirmed?: boolean }>;
  serialize(): unknown;
  onRenewed(leaseMs: number): void;
  /** A renewal failed, unless the hold's end cancelled it (`renew-failed`). */
  onRenewFailed(error: unknown): void;
}

/**
 * Hands `target` to the keeper: renew every lease/3 until `stop` aborts or the lease ends.
 * Resolves once the keeper has taken the task; rejects with the keeper's own error when `keep`
 * throws, or when the promise it returns (a keeper's `keep` is typed `void`, but an `async` one
 * returns a promise) rejects before the next macrotask. A later rejection loses the lease
 * ("keeper-failed"): nothing renews it any more, and the holder must know now rather than at
 * the deadline. Never an unhandled rejection.
 */
export function keepRenewing(keeper: Keeper, target: Renewable, stop: AbortSignal): Promise<void> {
  let returned: unknown;
  try {
    returned = keeper.keep({
      name: target.name,
      intervalMs: Math.max(1, Math.floor(target.leaseMs() / 3)),
      signal: stop,
      lease: () => target.serialize(),
      renew: () => keeperRenewal(target, stop),
      handedOver: () => {
        target.lease.deadlineReason = "taken-over";
      },
    });
  } catch (error) {
    return Promise.reject(error as Error);
  }
  if (!isThenable(returned)) return Promise.resolve();
  const pending = returned;
  return new Promise<void>((resolve, reject) => {
    let started = false;
    const timer = setTimeout(() => {
      started = true;
      resolve();
    }, 0);
    pending.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (started) target.lease.lose("keeper-failed", error);
        else reject(error as Error);
      },
    );
  });
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/**
 * Starts the keeper of a new hold (`start`); when the keeper fails, gives the hold back
 * (`release`) before the acquire fails, so the lock is free at once rather than after a lease.
 * @throws KeeperError with the keeper's error as `cause`.
 */
export async function keptOrGivenBack(
  name: string,
  start: () => Promise<void>,
  release: () => Promise<void>,
): Promise<void> {
  try {
    await start();
  } catch (error) {
    const released = await release().then(
      () => true,
      () => false,
    );
    throw new KeeperError(name, error, released);
  }
}

/**
 * One keeper renewal, with the lease rules of the Lock: near `maxHoldMs` the last renewal asks
 * only for what is left (and the deadline then reports "max-hold"); a renewal that finds the hold
 * gone loses the lease at once; a confirmed one moves the local deadline.
 */
export async function keeperRenewal(
  target: Renewable,
  stop: AbortSignal,
): Promise<"renewed" | "stop"> {
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
  let result;
  try {
    result = await target.extend(leaseMs, stop);
  } catch (error) {
    // Told unless the hold's end cancelled it: the failure of a renewal that failed on its own
    // is told even when the hold ended while the failure was on its way (after `lost`, it is why
    // the lease ran out; after a release, the fault still happened). The cancel that a release,
    // a loss or a keeper restart causes (an `AbortedError`) is not a failure of the renewal.
    if (!stop.aborted || !(error instanceof AbortedError)) target.onRenewFailed(error);
    throw error;
  }
  if (!lease.active) return "stop";
  if (!result.renewed) {
    lease.lose("gone");
    return "stop";
  }
  if (result.leaseConfirmed !== true) lease.confirm(result.sentAt, leaseMs);
  target.onRenewed(leaseMs);
  return leaseMs < full ? "stop" : "renewed";
}
