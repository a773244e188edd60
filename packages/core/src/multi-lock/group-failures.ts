import { AbortedError, BackendError, OutcomeUnknownError } from "../errors.ts";

/**
 * What a multi-lock call whose groups ran in parallel throws when some failed: one typed error
 * that carries every group's failure, so none goes untold (a keeper's renewal reports only what
 * it throws). The caller's abort wins (what may have applied is undone in the background); then
 * an unknown outcome on any group makes the whole unknown; otherwise a `BackendError` (nothing
 * applied where it failed). Either keeps its first group's message and takes an `AggregateError`
 * of all the failures as its `cause`. One failure is thrown as it is.
 */
export function groupFailure(failures: readonly unknown[]): unknown {
  const [first] = failures;
  if (failures.length < 2) return first;
  const aborted = failures.find((f) => f instanceof AbortedError);
  if (aborted !== undefined) return aborted;
  const also = `${failures.length - 1} more group(s) failed too`;
  const unknown = failures.find((f) => f instanceof OutcomeUnknownError);
  if (unknown !== undefined) {
    const causes = failures.map((f) => (f === unknown ? unknown.cause : f));
    return new OutcomeUnknownError(
      unknown.operation,
      unknown.attempts,
      new AggregateError(causes, also),
      unknown.settleError,
    );
  }
  if (first instanceof BackendError)
    return new BackendError(`${first.message} (${also})`, {
      cause: new AggregateError(failures, also),
      ...(first.status === undefined ? {} : { status: first.status }),
    });
  return first;
}

/** The failures of calls run side by side, in their order. */
export function rejections(results: readonly PromiseSettledResult<unknown>[]): unknown[] {
  return results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
}
