import type { RunOptions } from "../engine/eval-script.ts";
import type { Operation } from "../engine/operation.ts";
import type { ServerHint } from "../wait/wait-loop.ts";

/** One group's grant: a fence per name (in the group's order), and when it was asked for. */
export interface GroupGrant {
  readonly fences: readonly number[];
  readonly reentered: readonly boolean[];
  /** The lease version of each lock after the grant (renewals carry it), in the group's order. */
  readonly versions: readonly number[];
  /** The shortest lease the server confirmed among the group's locks, ms. */
  readonly pttl: number;
  readonly sentAt: number;
}

export type GroupAcquire = { readonly granted: GroupGrant } | { readonly busy: ServerHint };

/** One renewal of a group's locks, ordered by each lock's lease version (one request, no retry). */
export interface GroupRenewal {
  /** Per name: "stale" when another renewal of that lease applied first (then nothing changed). */
  readonly status: readonly ("renewed" | "stale" | "gone")[];
  /** Per name: the version after the renewal, or the server's (0 when gone). */
  readonly versions: readonly number[];
  /** Per name: the lease the server has, ms. */
  readonly pttls: readonly number[];
}

/** What a renewal of a group carries: the hold's fences and last-seen versions, in the group's order. */
export interface GroupRenewalParams {
  readonly owner: string;
  readonly fences: readonly number[];
  readonly versions: readonly number[];
  readonly leaseMs: number;
  readonly op: Operation;
  /** Until the hold's local deadline: a renewal applied later would be useless. */
  readonly budgetMs: number;
  /** The keeper's stop: cancels a renewal the hold no longer needs. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * The names of a multi-lock that share one hash tag, so one script can take them all at once.
 * A group of one name runs the Lock's own scripts; a larger group runs the multi-key scripts of
 * this folder. Either way the keys are the Lock's, so both exclude plain Locks on those names.
 */
export interface SlotGroup {
  readonly tag: string;
  /** Sorted by key. */
  readonly names: readonly string[];
  /**
   * All of the group's locks or none of them. `how`: the caller's signal and budget. `queue`: when
   * busy, join (or stay in) the name's queue, promising to poll again within `returnWithinMs`;
   * only a group of one name queues (see `channelPrefix`), a larger one ignores it.
   */
  acquire(
    owner: string,
    leaseMs: number,
    opId: string,
    how: RunOptions,
    queue?: { readonly returnWithinMs: number },
  ): Promise<GroupAcquire>;
  /**
   * A group of one name queues its waiters as the Lock does, and its release hands the lock to
   * the head, announced on `channelPrefix + owner`; undefined for a larger group (never queues).
   */
  readonly channelPrefix?: string;
  /**
   * A group of one name only: joins its queue behind another's hold and nothing else (never takes
   * it free nor claims a grant), so that its release hands it to this waiter (`channelPrefix`).
   * `hint.position` is 0 when it did not join (the name was free, or the owner's own).
   */
  join?(
    owner: string,
    opId: string,
    how: RunOptions,
    returnWithinMs: number,
  ): Promise<{ readonly hint: ServerHint; readonly sentAt: number }>;
  /** Gives back exactly what operation `opId` took (if it ran) and makes a late copy of it do nothing. */
  abandon(owner: string, opId: string): Promise<void>;
  /** One hold level per name; per name whether it was held (by this owner and fence) and what count is left. */
  release(
    owner: string,
    fences: readonly number[],
    opId: string,
  ): Promise<{ released: boolean[]; remaining: number[] }>;
  extend(p: GroupRenewalParams): Promise<GroupRenewal>;
}
