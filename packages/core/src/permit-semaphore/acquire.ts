import { AcquireTimeoutError } from "../errors.ts";
import { maskId, randomId } from "../ids.ts";
import { keptOrGivenBack } from "../lease/renewal.ts";
import { acquireAsWaiter } from "../semaphore/waiter-acquire.ts";
import { checkLeaseWithinQuarantine } from "../quarantine/quarantine.ts";
import { validateObject, validateOptionalMs, validateSignal } from "../validate.ts";
import { HeldPermit } from "./held-permit.ts";
import { abandonOnce, acquireOnce, type PermitSemaphoreRef } from "./ops.ts";
import type { Permit, PermitAcquireOptions } from "./types.ts";

/**
 * Takes one permit, waiting up to `options.waitMs` in the FIFO queue under one waiter id, which
 * becomes the permit id. Without `leaseMs` the permit gets the client's default lease and the
 * keeper renews it. Throws `AcquireTimeoutError` when the budget runs out.
 */
export async function acquirePermit(
  ref: PermitSemaphoreRef,
  options: PermitAcquireOptions | undefined,
): Promise<Permit> {
  const o = validateObject("options", options) as PermitAcquireOptions;
  const waitMs = validateOptionalMs("options.waitMs", o.waitMs) ?? 0;
  const fixed = validateOptionalMs("options.leaseMs", o.leaseMs, { min: 1 });
  const maxHoldMs = validateOptionalMs("options.maxHoldMs", o.maxHoldMs, { min: 1 });
  const signal = validateSignal("options.signal", o.signal);
  if (fixed !== undefined) checkLeaseWithinQuarantine(ref.ctx, "options.leaseMs", fixed);
  const leaseMs = fixed ?? Math.min(ref.ctx.leaseMs, maxHoldMs ?? Infinity);
  const waiter = randomId();
  const result = await acquireAsWaiter<HeldPermit>({
    ctx: ref.ctx,
    name: ref.name,
    waitMs,
    signal,
    grants: { channelPrefix: ref.keys.channelPrefix, waiter },
    attempt: async ({ op, queue, returnWithinMs, budgetMs }) => {
      const p = { waiter, leaseMs, queue, returnWithinMs, op, budgetMs, signal };
      const { reply, sentAt } = await acquireOnce(ref, p);
      if (reply.status === "busy") return { busy: reply.hint };
      const keepAlive = fixed === undefined;
      const init = {
        id: waiter,
        fence: reply.fence,
        sentAt,
        confirmedMs: reply.leaseMs,
        leaseMs,
        keepAlive,
        maxHoldMs,
        version: 0,
      };
      return { granted: new HeldPermit(ref, init) };
    },
    abandon: (op) => abandonOnce(ref, waiter, op),
  });
  const waitedMs = Math.round(result.waitedMs);
  if (!result.granted)
    throw new AcquireTimeoutError(ref.name, waitedMs, result.attempts, result.hint);
  const permit = result.granted;
  await keptOrGivenBack(
    ref.name,
    () => permit.startKeeping(),
    () => permit.release(),
  );
  const { fence } = result.granted;
  const { attempts } = result;
  const owner = maskId(waiter);
  ref.ctx.emit({
    type: "acquired",
    name: ref.name,
    owner,
    fence,
    reentrant: false,
    waitedMs,
    attempts,
  });
  return result.granted;
}
