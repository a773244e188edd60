import { BackendError } from "../errors.ts";
import type { Operation } from "../engine/operation.ts";

/**
 * The operation a hold's next release attempt uses, after one ended in `error`.
 *
 * A `BackendError` means the operation did not apply and never will (a settle tombstoned it, a
 * LATE refusal, a request that never reached the server): repeating its id would only be answered
 * `TOMBSTONED` until the tombstone expires, and the permits would stay taken. So the next attempt
 * moves to the id's successor. Any other failure (an unknown outcome above all) keeps the id: a
 * copy of it may still have applied, and only the same id makes the repeat exactly-once.
 *
 * The successor is a function of the refused id (`<root>.<n+1>`), not a fresh random id: every
 * copy of a serialised hold (`toJSON` handed to other invocations) that learns the same refusal
 * moves to the same next id, so their releases stay one intent.
 */
export function nextReleaseOp(op: Operation, error: unknown): Operation {
  if (!(error instanceof BackendError)) return op;
  return { id: successorId(op.id), deadline: undefined };
}

/** `abc` → `abc.1` → `abc.2`; random ids are base64url, which has no `.`. */
export function successorId(id: string): string {
  const m = /^(.*)\.(\d+)$/.exec(id);
  return m === null ? `${id}.1` : `${m[1]!}.${Number(m[2]!) + 1}`;
}
