import type { ClientContext } from "../config.ts";
import { evalScript, type EvalResult, type RunOptions } from "../engine/eval-script.ts";
import type { Operation } from "../engine/operation.ts";
import type { Script } from "../engine/script.ts";
import type { LockKeys } from "../keys.ts";
import type { LockOps } from "./flavor.ts";

/** Everything needed to talk about one lock as one owner. */
export interface LockRef {
  readonly ctx: ClientContext;
  readonly name: string;
  readonly owner: string;
  readonly keys: LockKeys;
  /** The scripts behind this handle (a fair or read-write lock's); the Lock's own when absent. */
  readonly ops?: LockOps;
}

export interface AcquireParams {
  readonly leaseMs: number;
  readonly queue: boolean;
  readonly returnWithinMs: number;
  /** This attempt: its id, and the deadline the engine gives its copies. */
  readonly op: Operation;
  /** How long after sending a copy of this attempt may still apply (the caller's wait). */
  readonly budgetMs: number;
  readonly signal?: AbortSignal | undefined;
  /** The wait's budget (monotonic ms), which this attempt's requests and retries must not outlast. */
  readonly deadline?: number | undefined;
}

/**
 * A script call on the path before the operation protocol (the fair and read-write locks' own
 * scripts): positional slots, the operation record passed by the caller; every one is read-only,
 * idempotent or guarded by an operation id.
 */
export function run(
  ref: LockRef,
  script: Script,
  operation: string,
  keys: string[],
  args: (string | number)[],
  how: RunOptions = {},
): Promise<EvalResult> {
  return evalScript(
    ref.ctx.backend,
    script,
    { operation: `${operation} "${ref.name}"`, keys, args, retrySafe: true, ...how },
    ref.ctx.policy,
    ref.ctx.emit,
  );
}

export function opKey(ref: LockRef, opId: string): string {
  return ref.keys.opPrefix + opId;
}
