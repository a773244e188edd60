import { readWriteLockKeys } from "../keys.ts";
import { decodeInspect } from "../lock/codec.ts";
import { opKey, run, type LockRef } from "../lock/ops.ts";
import * as s from "./scripts.generated.ts";
import type { Operation } from "../engine/operation.ts";

// Script calls both sides share. Both sides run on the Lock's machinery (holds, leases, acquire
// loop, resume) through `readLockOps` / `writeLockOps`.

/** Every key of the lock, in the order the scripts take them: writer side, then readers. */
export function allKeys(ref: LockRef) {
  const k = readWriteLockKeys(ref.ctx.prefix, ref.name);
  return { k, head: [k.lock, k.fence, k.queue, k.queueDeadlines, k.readers, k.readerHolds] };
}

export function abandon(script: typeof s.abandonReadScript) {
  return async (ref: LockRef, op: Operation): Promise<boolean> => {
    const { ctx } = ref;
    const { k, head } = allKeys(ref);
    const { reply } = await run(
      ref,
      script,
      script.name,
      [...head, opKey(ref, op.id)],
      [ref.owner, ctx.operationRecordTtlMs, ctx.fenceTtlMs, k.channelPrefix],
    );
    return Array.isArray(reply) && Number(reply[0]) === 1;
  };
}

export function inspect(side: "r" | "w") {
  return async (ref: LockRef) => {
    const { k } = allKeys(ref);
    const { reply } = await run(
      ref,
      s.inspectScript,
      "inspect",
      [k.lock, k.queueDeadlines, k.readers, k.readerHolds],
      [ref.owner, side],
      { readOnly: true },
    );
    return decodeInspect(reply);
  };
}

export function forceUnlock(side: "r" | "w") {
  return async (ref: LockRef): Promise<boolean> => {
    const { head, k } = allKeys(ref);
    const { reply } = await run(ref, s.forceUnlockScript, "forceUnlock", head, [
      side,
      ref.ctx.fenceTtlMs,
      k.channelPrefix,
    ]);
    return Array.isArray(reply) && Number(reply[0]) === 1;
  };
}
