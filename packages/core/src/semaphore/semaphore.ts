import type { ClientContext } from "../client-context.ts";
import { AcquireTimeoutError, PermitsRefusedError } from "../errors.ts";
import { newOperation } from "../engine/operation.ts";
import { semaphoreKeys } from "../keys.ts";
import { withHeld } from "../lease/with-held.ts";
import { validateFunction, validateInteger } from "../validate.ts";
import { acquirePermits, MAX_PERMITS } from "./acquire.ts";
import { SemaphoreHoldView } from "./held-semaphore.ts";
import { PushedClaim } from "./pushed-claim.ts";
import { runChange, runInspect, type SemaphoreRef } from "./calls.ts";
import { checkSemaphoreFields } from "../serialized-hold/kind-fields.ts";
import { parseHoldFor } from "../serialized-hold/parse-for.ts";
import type {
  SemaphoreAcquireOptions,
  SemaphoreHold,
  SemaphoreStatus,
  SerializedSemaphoreHold,
} from "./types.ts";

/**
 * A counting semaphore (Redisson's `RSemaphore`). The server decides every grant; waiters are
 * served strictly first-in first-out, so a request for many permits is never starved by many
 * requests for one. Permits are not owned and have no lease (see `SemaphoreHold`).
 * @example
 * const sem = edgelock.semaphore("exports");
 * await sem.trySetPermits(3);
 * await using hold = await sem.acquire({ waitMs: 10_000 });
 */
export class Semaphore {
  readonly #ref: SemaphoreRef;

  /** @internal use `client.semaphore(name)` */
  constructor(ctx: ClientContext, name: string) {
    this.#ref = { ctx, name, keys: semaphoreKeys(ctx.prefix, name) };
  }

  get name(): string {
    return this.#ref.name;
  }

  /** Sets the permits when the semaphore is not set yet; `false` when it already was. */
  async trySetPermits(permits: number): Promise<boolean> {
    validateInteger("permits", permits, 0, MAX_PERMITS);
    return (await runChange(this.#ref, "trySetPermits", permits, newOperation())).applied;
  }

  /**
   * Adds `delta` permits to the configured total (and to the available count); negative removes
   * them, and the available count may then fall below zero until holders release.
   * @throws PermitsRefusedError when the total would fall below zero.
   */
  async addPermits(delta: number): Promise<void> {
    validateInteger("delta", delta, -MAX_PERMITS, MAX_PERMITS);
    const result = await runChange(this.#ref, "addPermits", delta, newOperation());
    if (!result.applied) throw new PermitsRefusedError(this.name, "negative-total", result);
  }

  /**
   * Takes `permits`, waiting up to `waitMs` (default 0: one attempt) in the FIFO queue.
   * @throws AcquireTimeoutError when not acquired in time; AbortedError when `signal` aborts.
   */
  acquire(options?: SemaphoreAcquireOptions): Promise<SemaphoreHold> {
    return acquirePermits(this.#ref, options);
  }

  /**
   * `acquire` that answers `null` instead of throwing when the permits were not acquired within
   * `waitMs`. Without `waitMs`, one attempt that never waits and never overtakes queued waiters.
   */
  async tryAcquire(options?: SemaphoreAcquireOptions): Promise<SemaphoreHold | null> {
    try {
      return await acquirePermits(this.#ref, options);
    } catch (error) {
      if (error instanceof AcquireTimeoutError) return null;
      throw error;
    }
  }

  /**
   * Runs `fn` while holding the permits, and releases them afterwards (also when `fn` throws):
   * `fn`'s value, or `fn`'s own error unchanged. Rejects with `LeaseLostError` instead of the
   * value when the permits were lost meanwhile (`hold.signal` aborted: a pushed grant whose claim
   * did not land). The release never replaces either.
   */
  async withPermits<T>(
    fn: (hold: SemaphoreHold) => Promise<T> | T,
    options?: SemaphoreAcquireOptions,
  ): Promise<T> {
    validateFunction("fn", fn);
    return withHeld(await this.acquire(options), fn);
  }

  /**
   * Gives back `permits` that were not taken through a `SemaphoreHold` (Redisson's
   * `release(n)`: anyone may release). Exactly once per call.
   * @throws PermitsRefusedError when it would raise the count above what was set plus added.
   */
  async release(permits = 1): Promise<void> {
    validateInteger("permits", permits, 1, MAX_PERMITS);
    const result = await runChange(this.#ref, "release", permits, newOperation());
    if (!result.applied) throw new PermitsRefusedError(this.name, "over-release", result);
  }

  /** Permits free right now (may be negative after `addPermits` with a negative delta). */
  async availablePermits(): Promise<number> {
    return (await runInspect(this.#ref)).available;
  }

  /** Available and total permits, and the number of queued waiters. */
  status(): Promise<SemaphoreStatus> {
    return runInspect(this.#ref);
  }

  /**
   * A hold serialised by `hold.toJSON()`, so another invocation can release it exactly once. The
   * same as `client.resumeHold(hold)`.
   */
  resume(hold: SerializedSemaphoreHold): SemaphoreHold {
    const want = { kind: "semaphore", prefix: this.#ref.ctx.prefix, name: this.name } as const;
    const h = parseHoldFor(hold, "hold", want, checkSemaphoreFields);
    const anchor = h.releaseAnchor;
    const releaseOp = {
      id: h.releaseOp,
      deadline: undefined,
      ...(anchor === undefined ? {} : { anchor, inDoubt: true }),
    };
    if (h.claimOp === undefined || h.claimWaiter === undefined)
      return new SemaphoreHoldView(this.#ref, h.permits, releaseOp);
    const op = { id: h.claimOp, deadline: h.claimDeadline };
    const pending = new PushedClaim(this.#ref, h.permits, { waiter: h.claimWaiter, op });
    return new SemaphoreHoldView(this.#ref, h.permits, releaseOp, { pending, serialised: true });
  }
}

export { MAX_PERMITS };
