import { newOperation } from "../engine/operation.ts";
import { grantNumbers, pushedGrantMs } from "../wait/pushed-grant.ts";
import { PushedClaim } from "./pushed-claim.ts";
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
  const result = await acquireAsWaiter<SemaphoreHoldView>({
    ref,
    waiter,
    waitMs,
    signal,
    attempt: async ({ op, queue, returnWithinMs, budgetMs }) => {
      const p = { waiter, permits, queue, returnWithinMs, op, budgetMs, signal };
      const { reply } = await runAcquire(ref, p);
      if (reply.status === "busy") return { busy: reply.hint };
      return { granted: new SemaphoreHoldView(ref, permits, newOperation()) };
    },
    abandon: async (op) => (await runAbandon(ref, waiter, permits, op)).back,
    // A pushed grant is these permits already, reserved under this waiter's id until the claim
    // window ends: enter on the message (one trip after the release, where a claim would cost
    // two) and claim in the background at once; `hold.signal` aborts if the claim does not land
    // in time. At once, not deferred as a leased hold's claim is (claimDelayMs): permits have no
    // lease, and their holders are not expected to watch a signal, so the claim gets the whole
    // window to land through slow answers and retries (pushed-claim.rest.test.ts: an answer
    // 950 ms late in a 1.5 s window keeps the permits; sent a third of the way in, it lost them).
    onMessage: (payload, since) => {
      const grant = parseGrant(payload, permits);
      if (grant === undefined) return "attempt";
      const room = pushedGrantMs(grant, since);
      if (typeof room === "string") return room;
      const claim = new PushedClaim(ref, permits, { waiter, sentAt: since.sentAt, validMs: room });
      claim.start(room);
      const pending = { pending: claim, serialised: false };
      return { granted: new SemaphoreHoldView(ref, permits, newOperation(), pending) };
    },
  });
  const { waitedMs, attempts, granted: hold } = result;
  const grant = { name: ref.name, owner: waiter, fence: 0, reentrant: false, waitedMs, attempts };
  await completeGrant(ref.ctx, grant);
  return hold;
}

/** A direct grant as announced on the waiter's channel: `permits,claim window ms,server ms`. */
function parseGrant(payload: string, permits: number) {
  const parts = grantNumbers(payload, 3);
  if (parts === undefined) return undefined;
  const [granted, claimMs, at] = parts as [number, number, number];
  return granted === permits && claimMs > 0 ? { claimMs, at } : undefined;
}
