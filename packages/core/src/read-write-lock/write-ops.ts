import { UpgradeError } from "../errors.ts";
import { extendFairHold, fairAcquireArgs } from "../fair-lock/ops.ts";
import { decodeAcquire, decodeRelease } from "../lock/codec.ts";
import { unversionedExtend, type LockOps } from "../lock/flavor.ts";
import type { Operation } from "../engine/operation.ts";
import { opKey, run, type AcquireParams, type LockRef } from "../lock/ops.ts";
import { quarantineKey } from "../quarantine/quarantine.ts";
import { abandon, allKeys, forceUnlock, inspect } from "./ops-shared.ts";
import * as s from "./scripts.generated.ts";

// The write side. The writer's hash has the fair lock's layout, so it renews with the fair lock's
// extend script.

async function acquireWrite(ref: LockRef, p: AcquireParams) {
  const { ctx } = ref;
  const { k, head } = allKeys(ref);
  const { reply, sentAt } = await run(
    ref,
    s.acquireWriteScript,
    "write acquire",
    [...head, k.stats, opKey(ref, p.op.id), quarantineKey(ctx, ref.name)],
    fairAcquireArgs(ref, p, k.channelPrefix),
    { signal: p.signal, deadline: p.deadline },
  );
  if (Array.isArray(reply) && Number(reply[0]) === -2) throw new UpgradeError(ref.name);
  return { reply: decodeAcquire(reply), sentAt };
}

async function releaseWrite(ref: LockRef, fence: number, op: Operation) {
  const { ctx } = ref;
  const { k, head } = allKeys(ref);
  const { reply } = await run(
    ref,
    s.releaseWriteScript,
    "write release",
    [...head, k.stats, opKey(ref, op.id)],
    [
      ref.owner,
      String(fence),
      ctx.operationRecordTtlMs,
      ctx.fenceTtlMs,
      k.channelPrefix,
      ctx.statsTtlMs,
    ],
  );
  return decodeRelease(reply);
}

export const writeLockOps: LockOps = Object.freeze({
  kind: "write-lock",
  acquire: acquireWrite,
  release: releaseWrite,
  extend: unversionedExtend(extendFairHold),
  abandon: abandon(s.abandonWriteScript),
  inspect: inspect("w"),
  forceUnlock: forceUnlock("w"),
});
