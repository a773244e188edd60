import { newOperation } from "../engine/operation.ts";
import { maskId, randomId } from "../ids.ts";
import {
  validateInteger,
  validateObject,
  validateOptionalMs,
  validateSignal,
} from "../validate.ts";
import { SemaphoreHoldView } from "./held-semaphore.ts";
import { runAbandon, runAcquire, type SemaphoreRef } from "./calls.ts";
import type { SemaphoreAcquireOptions, SemaphoreHold } from "./types.ts";
import { acquireAsWaiter } from "../waiter-queue/acquire-as-waiter.ts";
import { MAX_PERMITS } from "./limits.ts";

export { MAX_PERMITS };

/**
 * Takes `options.permits` (all or none), waiting up to `options.waitMs` in the FIFO queue under
 * one waiter id. Throws `AcquireTimeoutError` when the budget runs out.
 */
export async function acquirePermits(
  ref: SemaphoreRef,
  options: SemaphoreAcquireOptions | undefined,
): Promise<SemaphoreHold> {
  const o = validateObject("options", options) as SemaphoreAcquireOptions;
  const permits = validateInteger("options.permits", o.permits ?? 1, 1, MAX_PERMITS);
  const waitMs = validateOptionalMs("options.waitMs", o.waitMs) ?? 0;
  const signal = validateSignal("options.signal", o.signal);
  const waiter = randomId();
  const result = await acquireAsWaiter<true>({
    ctx: ref.ctx,
    name: ref.name,
    waitMs,
    signal,
    grants: { channelPrefix: ref.keys.channelPrefix, waiter },
    attempt: async ({ op, queue, returnWithinMs, budgetMs }) => {
      const p = { waiter, permits, queue, returnWithinMs, op, budgetMs, signal };
      const reply = await runAcquire(ref, p);
      return reply.status === "busy" ? { busy: reply.hint } : { granted: true };
    },
    abandon: (op) => runAbandon(ref, waiter, permits, op),
  });
  const { waitedMs, attempts } = result;
  const owner = maskId(waiter);
  ref.ctx.emit({
    type: "acquired",
    name: ref.name,
    owner,
    fence: 0,
    reentrant: false,
    waitedMs,
    attempts,
  });
  return new SemaphoreHoldView(ref, permits, newOperation());
}
