import type { Operation } from "../engine/operation.ts";
import type { ResourceRef } from "../engine/resource-ref.ts";
import type { LockKeys } from "../keys.ts";
import type { LockCalls } from "./lock-shape.ts";

/** Everything needed to talk about one lock as one owner. */
export interface LockRef extends ResourceRef<LockKeys> {
  readonly owner: string;
  /** Other handles may act as this owner too (see `HandleOwner`). */
  readonly ownerShared?: boolean;
  /** The scripts behind this handle (a fair or read-write lock's); the Lock's own when absent. */
  readonly calls?: LockCalls;
}

export interface AcquireParams {
  readonly leaseMs: number;
  readonly queue: boolean;
  /**
   * An earlier attempt of this acquire may have queued it (its answer may be lost, a late copy
   * may still land): only then need the fair layout's scripts look for its place in the queue.
   */
  readonly queuedBefore?: boolean | undefined;
  readonly returnWithinMs: number;
  /**
   * The Lock's only: join the queue behind another's hold and nothing else (never take a free
   * lock nor claim a grant): a multi-lock waiter queued at its first name joining a later one.
   */
  readonly joinOnly?: boolean | undefined;
  /** This attempt: its id, and the deadline the engine gives its copies. */
  readonly op: Operation;
  /** How long after sending a copy of this attempt may still apply (the caller's wait). */
  readonly budgetMs: number;
  readonly signal?: AbortSignal | undefined;
  /** The wait's budget (monotonic ms), which this attempt's requests and retries must not outlast. */
  readonly deadline?: number | undefined;
}
