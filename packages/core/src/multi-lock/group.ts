import type { RunOptions } from "../engine/eval-script.ts";
import type { ServerHint } from "../wait/wait-loop.ts";

/** One group's grant: a fence per name (in the group's order), and when it was asked for. */
export interface GroupGrant {
  readonly fences: readonly number[];
  readonly reentered: readonly boolean[];
  /** The shortest lease the server confirmed among the group's locks, ms. */
  readonly pttl: number;
  readonly sentAt: number;
}

export type GroupAcquire = { readonly granted: GroupGrant } | { readonly busy: ServerHint };

/**
 * The names of a multi-lock that share one hash tag, so one script can take them all at once.
 * A group of one name runs the Lock's own scripts; a larger group runs the multi-key scripts of
 * this folder. Either way the keys are the Lock's, so both exclude plain Locks on those names.
 */
export interface SlotGroup {
  readonly tag: string;
  /** Sorted by key. */
  readonly names: readonly string[];
  /** All of the group's locks or none of them; never queues. `how`: the caller's signal and budget. */
  acquire(owner: string, leaseMs: number, opId: string, how: RunOptions): Promise<GroupAcquire>;
  /** Gives back exactly what operation `opId` took (if it ran) and makes a late copy of it do nothing. */
  abandon(owner: string, opId: string): Promise<void>;
  /** One hold level per name; per name whether it was held (by this owner and fence) and what count is left. */
  release(
    owner: string,
    fences: readonly number[],
    opId: string,
  ): Promise<{ released: boolean[]; remaining: number[] }>;
  /** `signal` (the keeper's stop) cancels a renewal the hold no longer needs. */
  extend(
    owner: string,
    fences: readonly number[],
    leaseMs: number,
    signal?: AbortSignal,
  ): Promise<{ renewed: boolean[]; sentAt: number }>;
}
