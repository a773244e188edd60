import type { ClientContext } from "../config.ts";
import { evalScript, type EvalResult, type RunOptions } from "../engine/eval-script.ts";
import type { Script } from "../engine/script.ts";
import { lockKeys, type LockKeys } from "../keys.ts";
import { quarantineArgs, quarantineKey } from "../quarantine/quarantine.ts";
import { busyHint, decodeMultiAcquire, decodeMultiExtend, decodeMultiRelease } from "./codec.ts";
import type { GroupAcquire, SlotGroup } from "./group.ts";
import { abandonScript, acquireScript, extendScript, releaseScript } from "./scripts.generated.ts";

/** A group of several names under one hash tag: one request per operation for all of them. */
export function slotGroup(ctx: ClientContext, tag: string, names: readonly string[]): SlotGroup {
  const keys: LockKeys[] = names.map((name) => lockKeys(ctx.prefix, name));
  const n = names.length;
  const label = `multi-lock {${tag}} (${n} names)`;
  const run = (
    script: Script,
    operation: string,
    k: string[],
    args: (string | number)[],
    how: RunOptions = {},
  ): Promise<EvalResult> =>
    evalScript(
      ctx.backend,
      script,
      { operation: `${operation} ${label}`, keys: k, args, retrySafe: true, ...how },
      ctx.policy,
      ctx.emit,
    );
  const perLock = (count: 4 | 5) =>
    keys.flatMap((k) => [k.lock, k.fence, k.queue, k.queueDeadlines, k.stats].slice(0, count));
  // The operation record lives under the first name's tag, which is every name's tag.
  const opKey = (opId: string) => `${keys[0]!.opPrefix}${opId}`;
  const channels = keys.map((k) => k.channelPrefix);
  return {
    tag,
    names,
    async acquire(owner, leaseMs, opId, how): Promise<GroupAcquire> {
      const args = [
        owner,
        leaseMs,
        ctx.claimWindowMs,
        ctx.operationRecordTtlMs,
        ctx.fenceTtlMs,
        ...channels,
        ...quarantineArgs(ctx),
      ];
      const k = [...perLock(5), opKey(opId), quarantineKey(ctx, names[0]!)];
      const { reply, sentAt } = await run(acquireScript, "acquire", k, args, how);
      const decoded = decodeMultiAcquire(reply, n);
      if (decoded.status === "busy") return { busy: decoded.hint };
      if (decoded.status === "abandoned") return { busy: busyHint(0) };
      return {
        granted: {
          fences: decoded.fences,
          reentered: decoded.reentered,
          pttl: decoded.pttl,
          sentAt,
        },
      };
    },
    async abandon(owner, opId) {
      const args = [
        owner,
        ctx.operationRecordTtlMs,
        ctx.claimWindowMs,
        ctx.fenceTtlMs,
        ...channels,
      ];
      await run(abandonScript, "abandon", [...perLock(4), opKey(opId)], args);
    },
    async release(owner, fences, opId) {
      const args = [
        owner,
        ctx.operationRecordTtlMs,
        ctx.claimWindowMs,
        ctx.fenceTtlMs,
        ctx.statsTtlMs,
        ...fences.map(String),
        ...channels,
      ];
      const { reply } = await run(releaseScript, "release", [...perLock(5), opKey(opId)], args);
      return decodeMultiRelease(reply, n);
    },
    async extend(owner, fences, leaseMs, signal) {
      const { reply, sentAt } = await run(
        extendScript,
        "extend",
        keys.map((k) => k.lock),
        [owner, leaseMs, ...fences.map(String)],
        { signal },
      );
      return { renewed: decodeMultiExtend(reply, n), sentAt };
    },
  };
}
