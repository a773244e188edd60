import type { Operation } from "../engine/operation.ts";
import { run } from "../engine/run.ts";
import { opRecordKey, readWriteLockKeys } from "../keys.ts";
import { latestDeadline } from "../engine/server-clocks.ts";
import { lockInfo, type LockInfo } from "../lock/codec.ts";
import type { LockRef } from "../lock/lock-ref.ts";
import * as s from "./scripts.generated.ts";

// Script calls both sides share, each through the engine's one entry. Both sides run on the
// Lock's machinery (holds, leases, acquire loop, resume) through `readSideCalls`
// (read-calls.ts) and `writeSideCalls` (write-calls.ts).

export const what = (ref: LockRef, operation: string) => `${operation} "${ref.name}"`;

/** Every key of the lock by the scripts' slot names: writer side, then readers. */
export function allKeys(ref: LockRef) {
  const k = readWriteLockKeys(ref.ctx.prefix, ref.name);
  const head = {
    lock: k.lock,
    fence: k.fence,
    queue: k.queue,
    deadlines: k.queueDeadlines,
    readers: k.readers,
    holds: k.readerHolds,
  };
  return { k, head };
}

export function abandon(script: typeof s.abandonReadScript | typeof s.abandonWriteScript) {
  return async (ref: LockRef, op: Operation): Promise<boolean> => {
    const { ctx } = ref;
    const { k, head } = allKeys(ref);
    const { reply } = await run(ctx, script, {
      what: what(ref, script.name),
      keys: { ...head, op: opRecordKey(k.lock, op.id) },
      args: {
        owner: ref.owner,
        deadline: latestDeadline(ref.ctx, op, k.lock),
        margin: ctx.recordMarginMs,
        fenceTtlMs: ctx.fenceTtlMs,
        channelPrefix: k.channelPrefix,
      },
    });
    return reply.status === 1;
  };
}

export function inspect(side: "r" | "w") {
  return async (ref: LockRef): Promise<LockInfo> => {
    const { k } = allKeys(ref);
    const { reply } = await run(ref.ctx, s.inspectScript, {
      what: what(ref, "inspect"),
      keys: { lock: k.lock, deadlines: k.queueDeadlines, readers: k.readers, holds: k.readerHolds },
      args: { owner: ref.owner, side },
      readOnly: true,
    });
    return lockInfo(reply);
  };
}

export function forceUnlock(side: "r" | "w") {
  return async (ref: LockRef, op: Operation): Promise<boolean> => {
    const { head, k } = allKeys(ref);
    const { reply } = await run(ref.ctx, s.forceUnlockScript, {
      what: what(ref, "forceUnlock"),
      keys: head,
      args: { side, fenceTtlMs: ref.ctx.fenceTtlMs, channelPrefix: k.channelPrefix },
      op,
    });
    return reply.status === 1;
  };
}
