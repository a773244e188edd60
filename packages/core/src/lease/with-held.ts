import { LeaseLostError } from "../errors.ts";

/** What `withHeld` needs of a hold: its dispose (which never throws) and, with a lease, its signal. */
export interface Disposing {
  readonly signal?: AbortSignal;
  [Symbol.asyncDispose](): PromiseLike<void>;
}

/**
 * Runs `fn` with `held` and releases it afterwards (also when `fn` throws): every `withLock`.
 *
 * - `fn` resolved and the lease held throughout: resolves with `fn`'s value.
 * - `fn` resolved but the lease was lost meanwhile (`held.signal` aborted before the release,
 *   or the release found the hold gone): rejects with the `LeaseLostError` — the work may not
 *   have been exclusive, so its value is not returned.
 * - `fn` threw: rejects with `fn`'s own error, unchanged (same object, never wrapped, so callers'
 *   `instanceof` and `code` checks keep working); a loss is then in `held.signal.reason` and the
 *   client's `lost` event, not in the rejection.
 *
 * The release never throws (a failed one is reported as a `release-failed` event), so it can
 * never replace either outcome; a release that failed after the work completed with the lease
 * intact does not fail the call.
 */
export async function withHeld<H extends Disposing, T>(
  held: H,
  fn: (held: H) => Promise<T> | T,
): Promise<T> {
  let value: T;
  try {
    value = await fn(held);
  } catch (error) {
    await held[Symbol.asyncDispose]();
    throw error;
  }
  const lostDuringFn = held.signal?.aborted === true;
  await held[Symbol.asyncDispose]();
  const reason: unknown = held.signal?.aborted === true ? held.signal.reason : undefined;
  if (reason !== undefined && (lostDuringFn || !releaseFailedOnly(reason))) throw reason;
  return value;
}

/** The release did not get through: the hold was not known lost when the work ended. */
function releaseFailedOnly(reason: unknown): boolean {
  return reason instanceof LeaseLostError && reason.reason === "release-failed";
}
