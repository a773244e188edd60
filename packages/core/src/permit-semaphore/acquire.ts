import { randomId } from "../ids.ts";
import { completeGrant } from "../lease/complete-grant.ts";
import { acquireAsWaiter } from "../waiter-queue/acquire-as-waiter.ts";
import { resolveHoldOptions } from "../lease/hold-options.ts";
import { HeldPermit } from "./held-permit.ts";
import { runAbandon, runAcquire, type PermitSemaphoreRef } from "./calls.ts";
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
  const resolved = resolveHoldOptions(options, ref.ctx, { waitMs: 0 });
  const { waitMs, leaseMs, keepAlive, maxHoldMs, signal } = resolved;
  const waiter = randomId();
  const result = await acquireAsWaiter<HeldPermit>({
    ref,
    waiter,
    waitMs,
    signal,
    attempt: async ({ op, queue, returnWithinMs, budgetMs }) => {
      const p = { waiter, leaseMs, queue, returnWithinMs, op, budgetMs, signal };
      const { reply, sentAt } = await runAcquire(ref, p);
      if (reply.status === "busy") return { busy: reply.hint };
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
    abandon: (op) => runAbandon(ref, waiter, op),
  });
  const { waitedMs, attempts, granted: permit } = result;
  await completeGrant(ref.ctx, {
    name: ref.name,
    owner: waiter,
    fence: permit.fence,
    reentrant: false,
    waitedMs,
    attempts,
    keeper: { start: () => permit.startKeeping(), giveBack: () => permit.release() },
  });
  return permit;
}
