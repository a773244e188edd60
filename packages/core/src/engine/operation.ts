import { randomId } from "../ids.ts";

/**
 * One intent of a caller (an acquire attempt, a release, a renewal): every copy the engine sends
 * for it carries the same id and deadline, so at most one applies, and none after `deadline`.
 */
export interface Operation {
  readonly id: string;
  /** The latest deadline any copy carried (server ms); set by the engine at the first send. */
  deadline: number | undefined;
  /**
   * The deadline of the first copy that may have applied (server ms), set at the first send. A
   * copy that applied left a record living at least until `anchor + margin`, so no later copy (a
   * resend, a repeat after an unknown outcome) carries a deadline past that: a repeat sent after
   * the record could have expired is refused, never applied a second time.
   */
  anchor?: number | undefined;
  /** A call of this operation ended in `OutcomeUnknownError`: a copy of it may have applied. */
  inDoubt?: boolean | undefined;
}

export function newOperation(): Operation {
  return { id: randomId(), deadline: undefined };
}

/**
 * `undo`, called at most once per operation: a wait aborted while an attempt was in flight undoes
 * that attempt (its outcome is unknown) and then leaves the queue through the same, last one.
 */
export function oncePerOperation(
  undo: (op: Operation) => void,
): (op: Operation | undefined) => void {
  const done = new WeakSet<Operation>();
  return (op) => {
    if (op === undefined || done.has(op)) return;
    done.add(op);
    undo(op);
  };
}

/** First slot of a protocol reply that the engine answers itself, before any decoder. */
export const LATE = -100;
export const TOMBSTONED = -101;
/** Settle found no record after the record could have expired: nothing can be known. */
export const TOO_LATE_TO_SETTLE = -102;
