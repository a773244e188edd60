import { newOperation } from "../engine/operation.ts";
import { randomId } from "../ids.ts";
import { completeGrant } from "../lease/complete-grant.ts";
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
    ref,
    waiter,
    waitMs,
    signal,
    attempt: async ({ op, queue, returnWithinMs, budgetMs }) => {
      const p = { waiter, permits, queue, returnWithinMs, op, budgetMs, signal };
      const reply = await runAcquire(ref, p);
      return reply.status === "busy" ? { busy: reply.hint } : { granted: true };
    },
    abandon: (op) => runAbandon(ref, waiter, permits, op),
  });
  const { waitedMs, attempts } = result;
  const grant = { name: ref.name, owner: waiter, fence: 0, reentrant: false, waitedMs, attempts };
  await completeGrant(ref.ctx, grant);
  return new SemaphoreHoldView(ref, permits, newOperation());
}
