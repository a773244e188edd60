import type { ClientContext } from "../config.ts";
import { lockKeys } from "../keys.ts";
import { abandonOnce, acquireOnce, extendOnce, releaseOnce, type LockRef } from "../lock/ops.ts";
import { busyHint } from "./codec.ts";
import type { GroupAcquire, SlotGroup } from "./group.ts";

/** A group of one name: exactly the Lock's scripts (acquire without queueing, release, extend, abandon). */
export function singleGroup(ctx: ClientContext, tag: string, name: string): SlotGroup {
  const keys = lockKeys(ctx.prefix, name);
  const ref = (owner: string): LockRef => ({ ctx, name, owner, keys });
  return {
    tag,
    names: [name],
    async acquire(owner, leaseMs, opId, how): Promise<GroupAcquire> {
      const { reply, sentAt } = await acquireOnce(ref(owner), {
        leaseMs,
        queue: false,
        returnWithinMs: 0,
        opId,
        signal: how.signal,
        deadline: how.deadline,
      });
      if (reply.status === "busy") return { busy: reply.hint };
      if (reply.status === "abandoned") return { busy: busyHint(0) };
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
      await abandonOnce(ref(owner), opId);
    },
    async release(owner, fences, opId) {
      const { released, remaining } = await releaseOnce(ref(owner), fences[0] ?? 0, opId);
      return { released: [released], remaining: [remaining] };
    },
    async extend(owner, fences, leaseMs, signal) {
      const { renewed, sentAt } = await extendOnce(ref(owner), fences[0] ?? 0, leaseMs, signal);
      return { renewed: [renewed], sentAt };
    },
  };
}
