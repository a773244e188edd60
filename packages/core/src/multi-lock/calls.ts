import type { ClientContext } from "../client-context.ts";
import { now } from "../engine/clock.ts";
import type { Operation } from "../engine/operation.ts";
import { run } from "../engine/run.ts";
import { latestDeadline } from "../engine/server-clocks.ts";
import { renewalStatus } from "../lease/ordered-renewal.ts";
import { lockKeys, opRecordKey, type LockKeys } from "../keys.ts";
import { quarantineHint } from "../lock/codec.ts";
import { busyHint } from "./codec.ts";
import type { GroupAcquire, SlotGroup } from "./group.ts";
import { abandonScript, acquireScript, extendScript, releaseScript } from "./scripts.generated.ts";

/**
 * A group of several names under one hash tag: one request per operation for all of them, each
 * through the engine (docs/protocol.md). Every key of a call carries the tag, and the engine
 * takes the record and quarantine keys from the call's first key, so no call raises CROSSSLOT.
 * Each lock keeps the Lock's lease version `v`; the hold carries the versions it last saw, so a
 * renewal is ordered on the server (lease/ordered-renewal.ts goes again once when stale).
 */
export function slotGroup(ctx: ClientContext, tag: string, names: readonly string[]): SlotGroup {
  const keys: LockKeys[] = names.map((name) => lockKeys(ctx.prefix, name));
  const n = names.length;
  const what = (operation: string) => `${operation} multi-lock {${tag}} (${n} names)`;
  const perLock = (count: 4 | 5) =>
    keys.flatMap((k) => [k.lock, k.fence, k.queue, k.queueDeadlines, k.stats].slice(0, count));
  const channels = keys.map((k) => k.channelPrefix);
  // The operations of acquires that may still need an abandon (which needs their deadline).
  const pending = new Map<string, Operation>();
  return {
    tag,
    names,
    async acquire(owner, leaseMs, opId, how): Promise<GroupAcquire> {
      const op: Operation = { id: opId, deadline: undefined };
      pending.set(opId, op);
      const { reply, sentAt } = await run(ctx, acquireScript, {
        what: what("acquire"),
        keys: { locks: perLock(5) },
        args: {
          owner,
          leaseMs,
          claimMs: ctx.claimWindowMs,
          fenceTtlMs: ctx.fenceTtlMs,
          channelPrefixes: channels,
        },
        op,
        // The wait's budget (start + waitMs + one request timeout) bounds every copy.
        budgetMs:
          how.deadline === undefined
            ? ctx.policy.retryWindowMs
            : Math.max(1, Math.ceil(how.deadline - now())),
        signal: how.signal,
      });
      if (reply.status === -3) return { busy: quarantineHint(reply.pttl) };
      if (reply.status !== 1) return { busy: busyHint(reply.pttl) };
      const kinds = reply.slots.slice(0, n);
      const fences = reply.slots.slice(n, 2 * n);
      const versions = reply.slots.slice(2 * n, 3 * n);
      const reentered = kinds.map((k) => k === 2);
      return { granted: { fences, reentered, versions, pttl: reply.pttl, sentAt } };
    },
    async abandon(owner, opId) {
      const op = pending.get(opId);
      const deadline = latestDeadline(ctx, op ?? { deadline: undefined }, keys[0]!.lock);
      await run(ctx, abandonScript, {
        what: what("abandon"),
        keys: { op: opRecordKey(keys[0]!.lock, opId), locks: perLock(4) },
        args: {
          owner,
          deadline,
          margin: ctx.recordMarginMs,
          claimMs: ctx.claimWindowMs,
          fenceTtlMs: ctx.fenceTtlMs,
          channelPrefixes: channels,
        },
      });
      pending.delete(opId);
    },
    async release(owner, fences, opId) {
      const { reply } = await run(ctx, releaseScript, {
        what: what("release"),
        keys: { locks: perLock(5) },
        args: {
          owner,
          claimMs: ctx.claimWindowMs,
          fenceTtlMs: ctx.fenceTtlMs,
          statsTtlMs: ctx.statsTtlMs,
          perLock: [...fences.map(String), ...channels],
        },
        op: { id: opId, deadline: undefined },
      });
      const remaining = reply.slots.slice(n, 2 * n);
      return { released: reply.slots.slice(0, n).map((s) => s === 1), remaining };
    },
    async extend(p) {
      const { reply } = await run(ctx, extendScript, {
        what: what("extend"),
        keys: { locks: keys.map((k) => k.lock) },
        args: {
          owner: p.owner,
          leaseMs: p.leaseMs,
          perLock: [...p.fences.map(String), ...p.versions],
        },
        op: p.op,
        budgetMs: p.budgetMs,
        signal: p.signal,
      });
      const codes = reply.slots.slice(0, n);
      return {
        status: codes.map(renewalStatus),
        versions: reply.slots.slice(n, 2 * n),
        pttls: reply.slots.slice(2 * n, 3 * n),
      };
    },
  };
}
