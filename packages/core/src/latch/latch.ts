import type { ClientContext } from "../client-context.ts";
import { latchKeys } from "../keys.ts";
import {
  validateInteger,
  validateMs,
  validateObject,
  validateOptionalMs,
  validateSignal,
} from "../validate.ts";
import { waitLoop } from "../wait/wait-loop.ts";
import { runCountDown, runGetCount, runTrySetCount, type LatchRef } from "./calls.ts";
import { DEFAULT_LATCH_OPTIONS, type LatchAwaitOptions, type TrySetCountOptions } from "./types.ts";

/** Largest count accepted. */
export const MAX_LATCH_COUNT = 1_000_000_000;

/**
 * A count-down latch (Redisson's `RCountDownLatch`): `await` resolves once `countDown` was called
 * `count` times. Each `countDown` call counts exactly once, also when its request is retried.
 * @example
 * const done = edgelock.countDownLatch(`job:${id}`);
 * await done.trySetCount(3);                      // coordinator
 * await done.countDown();                         // each of 3 workers
 * const opened = await done.await({ waitMs: 60_000 }); // true when all 3 are done
 */
export class CountDownLatch {
  readonly #ref: LatchRef;

  /** @internal use `client.countDownLatch(name)` */
  constructor(ctx: ClientContext, name: string) {
    this.#ref = { ctx, name, keys: latchKeys(ctx.prefix, name) };
  }

  get name(): string {
    return this.#ref.name;
  }

  /** Sets the count when the latch is open (unset or at zero); `false` while it is counting. */
  async trySetCount(count: number, options?: TrySetCountOptions): Promise<boolean> {
    validateInteger("count", count, 1, MAX_LATCH_COUNT);
    const o = validateObject("options", options) as TrySetCountOptions;
    const ttlMs = validateMs("options.ttlMs", o.ttlMs ?? DEFAULT_LATCH_OPTIONS.ttlMs, { min: 1 });
    return runTrySetCount(this.#ref, count, ttlMs);
  }

  /**
   * Counts down by one, exactly once: its copies (resends, a late copy) carry one operation id
   * and deadline, so at most one applies, and none after the deadline (docs/protocol.md).
   * Returns the count left; 0 when the latch is open (also when it already was).
   * @throws BackendError when it did not apply (settled as never applied, or refused).
   * @throws OutcomeUnknownError only when even the settle failed, once no copy can still apply.
   */
  async countDown(): Promise<number> {
    return (await runCountDown(this.#ref)).remaining;
  }

  /** The current count; 0 when open (never set, counted down, or expired). */
  async getCount(): Promise<number> {
    return runGetCount(this.#ref);
  }

  /**
   * Waits until the count reaches zero, polling through the shared wait loop.
   * Returns `true` when the latch is open, `false` when `waitMs` ran out first.
   * @throws AbortedError when `signal` aborts.
   */
  async await(options?: LatchAwaitOptions): Promise<boolean> {
    const o = validateObject("options", options) as LatchAwaitOptions;
    const waitMs = validateOptionalMs("options.waitMs", o.waitMs) ?? DEFAULT_LATCH_OPTIONS.waitMs;
    const signal = validateSignal("options.signal", o.signal);
    const ref = this.#ref;
    const result = await waitLoop({
      ctx: ref.ctx,
      name: ref.name,
      waitMs,
      signal,
      // Nobody queues on a latch: every poll is a read, and there is nothing to leave.
      attempt: async (_queue, _returnWithinMs, deadline) =>
        (await runGetCount(ref, signal, deadline)) === 0
          ? { granted: true as const }
          : { busy: { remainingLeaseMs: 0, position: 0, meanHoldMs: 0, holdAgeMs: 0 } },
      leave: () => undefined,
    });
    return result.granted === true;
  }
}
