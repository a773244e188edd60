import type { ClientContext } from "../client-context.ts";
import { now } from "../engine/clock.ts";
import { lockKeys } from "../keys.ts";
import { runAbandon, runAcquire, runExtend, runRelease } from "../lock/calls.ts";
import type { LockRef } from "../lock/lock-ref.ts";
import { busyHint } from "./codec.ts";
import type { RunOptions } from "../engine/eval-script.ts";
import type { GroupAcquire, SlotGroup } from "./group.ts";

/**
 * A group of one name: exactly the Lock's scripts (acquire, queueing when asked, release, extend,
 * abandon), so on the operation protocol; the hold carries the lock's lease version.
 */
export function singleGroup(ctx: ClientContext, tag: string, name: string): SlotGroup {
  const keys = lockKeys(ctx.prefix, name);
  const ref = (owner: string): LockRef => ({ ctx, name, owner, keys });
  const attemptParams = (opId: string, how: RunOptions, leaseMs: number) => ({
    leaseMs,
    op: { id: opId, deadline: undefined },
    // The wait's budget (start + waitMs + one request timeout) bounds every copy.
    budgetMs:
      how.deadline === undefined
        ? ctx.policy.retryWindowMs
        : Math.max(1, Math.ceil(how.deadline - now())),
    signal: how.signal,
  });
  return {
    tag,
    names: [name],
    channelPrefix: keys.channelPrefix,
    async join(owner, opId, how, returnWithinMs) {
      // The lease is unused: a join never takes the lock.
      const { reply, sentAt } = await runAcquire(ref(owner), {
        ...attemptParams(opId, how, 1),
        queue: true,
        joinOnly: true,
        returnWithinMs,
      });
      return { hint: reply.status === "busy" ? reply.hint : busyHint(0), sentAt };
    },
    async acquire(owner, leaseMs, opId, how, queue): Promise<GroupAcquire> {
      const { reply, sentAt } = await runAcquire(ref(owner), {
        ...attemptParams(opId, how, leaseMs),
        queue: queue !== undefined,
        returnWithinMs: queue?.returnWithinMs ?? 0,
      });
      if (reply.status === "busy") return { busy: reply.hint };
      if (reply.status === "abandoned") return { busy: busyHint(0) };
      return {
        granted: {
          fences: [reply.fence],
          reentered: [reply.status === "reentered"],
          versions: [reply.version],
          pttl: reply.pttl,
          sentAt,
        },
      };
    },
    async abandon(owner, opId) {
      await runAbandon(ref(owner), { id: opId, deadline: undefined });
    },
    async release(owner, fences, opId) {
      const fence = fences[0] ?? 0;
      const op = { id: opId, deadline: undefined };
      const { released, remaining } = await runRelease(ref(owner), fence, op);
      return { released: [released], remaining: [remaining] };
    },
    async extend(p) {
      const r = await runExtend(ref(p.owner), {
        ...p,
        fence: p.fences[0] ?? 0,
        version: p.versions[0] ?? 0,
      });
      return { status: [r.status], versions: [r.version], pttls: [r.pttl] };
    },
  };
}
