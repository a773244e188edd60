import type { HitKind, HitRecord } from "./types.ts";

/**
 * Which transport failures each client saw, and whether each was made known to the caller. A
 * failure is recognised again by identity: the engine hands the very error object to its
 * `retried` event, or wraps it as the `cause` of the error it throws or of a signal's reason.
 */
export class HitLedger {
  readonly #byError = new WeakMap<object, HitRecord>();

  constructor(
    private readonly hits: HitRecord[],
    private readonly next: () => number,
  ) {}

  add(worker: string, kind: HitKind, command: string, error: object): HitRecord {
    const hit: HitRecord = { id: this.hits.length, worker, kind, command, seq: this.next() };
    this.hits.push(hit);
    this.#byError.set(error, hit);
    return hit;
  }

  /**
   * Marks every recorded failure found in `error` or its `cause` chain as surfaced by `how`, an
   * `OutcomeUnknownError`'s `settleError` (the settle request that failed too) with its own, and
   * each of an `AggregateError`'s errors.
   */
  surface(error: unknown, how: string): void {
    const seen = new Set<unknown>();
    const pending = [error];
    while (pending.length > 0) {
      const e = pending.pop();
      if (typeof e !== "object" || e === null || seen.has(e)) continue;
      seen.add(e);
      const hit = this.#byError.get(e);
      if (hit) hit.surfacedBy ??= how;
      pending.push((e as { cause?: unknown }).cause, (e as { settleError?: unknown }).settleError);
      // A multi-lock's groups fail together: one error carries them all (an AggregateError).
      if (e instanceof AggregateError) pending.push(...(e.errors as unknown[]));
    }
  }

  /** Marks the given failures surfaced (an operation that threw a typed error surfaced all of its own). */
  surfaceAll(hits: readonly HitRecord[], how: string): void {
    for (const hit of hits) hit.surfacedBy ??= how;
  }
}
