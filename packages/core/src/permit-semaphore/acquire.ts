import { randomId } from "../ids.ts";
import { now } from "../engine/clock.ts";
import { claimDelayMs, grantNumbers, pushedGrantMs } from "../wait/pushed-grant.ts";
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
  // Set once an attempt that may queue is sent: its answer may be lost, and a late copy of it
  // may still arrive, so from then on a direct grant may wait under this id.
  let queuedBefore = false;
  const result = await acquireAsWaiter<HeldPermit>({
    ref,
    waiter,
    waitMs,
    signal,
    attempt: async ({ op, queue, returnWithinMs, budgetMs }) => {
      const p = { waiter, leaseMs, queue, queuedBefore, returnWithinMs, op, budgetMs, signal };
      if (queue) queuedBefore = true;
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
    // A pushed grant is a permit already, under this waiter's id, until the claim window ends:
    // enter on the message (one trip after the release, where a claim would cost two) and claim
    // in the background once the permit outlives a third of the grant, as a Lock's waiter does.
    onMessage: (payload, since) => {
      const grant = parseGrant(payload);
      if (grant === undefined) return "attempt";
      const room = pushedGrantMs(grant, since);
      if (typeof room === "string") return room;
      const init = {
        id: waiter,
        fence: grant.fence,
        sentAt: since.sentAt,
        confirmedMs: room,
        leaseMs,
        keepAlive,
        maxHoldMs,
        version: 0, // a direct grant has no lease version yet: the claim is its first renewal
      };
      const permit = new HeldPermit(ref, init);
      permit.claimInBackground(claimDelayMs(since.sentAt + room - now(), since.rttMs, leaseMs));
      return { granted: permit };
    },
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

/** A direct grant as announced on the waiter's channel: `claim window ms,fence,server ms`. */
function parseGrant(payload: string) {
  const parts = grantNumbers(payload, 3);
  if (parts === undefined) return undefined;
  const [claimMs, fence, at] = parts as [number, number, number];
  return claimMs > 0 ? { claimMs, fence, at } : undefined;
}
