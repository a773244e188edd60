import type { ClientContext } from "../config.ts";
import { now } from "../engine/clock.ts";
import { randomId } from "../ids.ts";
import { lockKeys } from "../keys.ts";
import { abandonOnce, acquireOnce, extendOnce, releaseOnce } from "../lock/calls.ts";
import type { LockRef } from "../lock/ops.ts";
import { busyHint } from "./codec.ts";
import type { GroupAcquire, SlotGroup } from "./group.ts";

/**
 * A group of one name: exactly the Lock's scripts (acquire without queueing, release, extend,
 * abandon), so on the operation protocol. The multi-lock keeps no lease version, so an extend
 * learns it from a stale answer and goes again once.
 */
export function singleGroup(ctx: ClientContext, tag: string, name: string): SlotGroup {
  const keys = lockKeys(ctx.prefix, name);
  const ref = (owner: string): LockRef => ({ ctx, name, owner, keys });
  const versions = new Map<number, number>();
  return {
    tag,
    names: [name],
    async acquire(owner, leaseMs, opId, how): Promise<GroupAcquire> {
      const { reply, sentAt } = await acquireOnce(ref(owner), {
        leaseMs,
        queue: false,
        returnWithinMs: 0,
        op: { id: opId, deadline: undefined },
        // The wait's budget (start + waitMs + one request timeout) bounds every copy.
        budgetMs:
          how.deadline === undefined
            ? ctx.policy.retryWindowMs
            : Math.max(1, Math.ceil(how.deadline - now())),
        signal: how.signal,
      });
      if (reply.status === "busy") return { busy: reply.hint };
      if (reply.status === "abandoned") return { busy: busyHint(0) };
      versions.set(reply.fence, reply.version);
      return {
        granted: {
          fences: [reply.fence],
          reentered: [reply.status === "reentered"],
          pttl: reply.pttl,
          sentAt,
        },
      };
    },
    async abandon(owner, opId) {
      await abandonOnce(ref(owner), { id: opId, deadline: undefined });
    },
    async release(owner, fences, opId) {
      const fence = fences[0] ?? 0;
      const op = { id: opId, deadline: undefined };
      const { released, remaining } = await releaseOnce(ref(owner), fence, op);
      if (remaining === 0) versions.delete(fence);
      return { released: [released], remaining: [remaining] };
    },
    async extend(owner, fences, leaseMs, signal) {
      const fence = fences[0] ?? 0;
      for (let tries = 0; ; tries++) {
        const op = { id: randomId(), deadline: undefined };
        const version = versions.get(fence) ?? 0;
        const params = { fence, version, leaseMs, op, budgetMs: leaseMs, signal };
        const r = await extendOnce(ref(owner), params);
        versions.set(fence, r.version);
        if (r.status !== "stale" || tries > 0)
          return { renewed: [r.status === "renewed"], sentAt: r.sentAt };
      }
    },
  };
}
