import { maskId, randomId } from "../ids.ts";
import { keptOrGivenBack } from "../lease/renewal.ts";
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
    ctx: ref.ctx,
    name: ref.name,
    waitMs,
    signal,
    grants: { channelPrefix: ref.keys.channelPrefix, waiter },
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
  const { waitedMs } = result;
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
