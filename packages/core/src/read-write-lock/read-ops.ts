import { decodeAcquire, decodeExtend, decodeRelease } from "../lock/codec.ts";
import { unversionedExtend, type LockOps } from "../lock/flavor.ts";
import type { Operation } from "../engine/operation.ts";
import { opKey, run, type AcquireParams, type LockRef } from "../lock/ops.ts";
import { quarantineArgs, quarantineKey } from "../quarantine/quarantine.ts";
import { abandon, allKeys, forceUnlock, inspect } from "./ops-shared.ts";
import * as s from "./scripts.generated.ts";

// The read side: each reader has its own lease in the readers zset.

async function acquireRead(ref: LockRef, p: AcquireParams) {
  const { ctx } = ref;
  const { k, head } = allKeys(ref);
  const { reply, sentAt } = await run(
    ref,
    s.acquireReadScript,
    "read acquire",
    [...head, k.stats, opKey(ref, p.op.id), quarantineKey(ctx, ref.name)],
    [
      ref.owner,
      p.leaseMs,
      ctx.operationRecordTtlMs,
      ctx.fenceTtlMs,
      k.channelPrefix,
      ...quarantineArgs(ctx),
    ],
    { signal: p.signal, deadline: p.deadline },
  );
  return { reply: decodeAcquire(reply), sentAt };
}

async function releaseRead(ref: LockRef, fence: number, op: Operation) {
  const { ctx } = ref;
  const { k, head } = allKeys(ref);
  const { reply } = await run(
    ref,
    s.releaseReadScript,
    "read release",
    [...head, opKey(ref, op.id)],
    [ref.owner, String(fence), ctx.operationRecordTtlMs, ctx.fenceTtlMs, k.channelPrefix],
  );
  return decodeRelease(reply);
}

async function extendRead(ref: LockRef, fence: number, leaseMs: number, signal?: AbortSignal) {
  const { k } = allKeys(ref);
  const { reply, sentAt } = await run(
    ref,
    s.extendReadScript,
    "read extend",
    [k.readers, k.readerHolds],
    [ref.owner, String(fence), leaseMs],
    { signal },
  );
  return { ...decodeExtend(reply), sentAt };
}

export const readLockOps: LockOps = Object.freeze({
  kind: "read-lock",
  acquire: acquireRead,
  release: releaseRead,
  extend: unversionedExtend(extendRead),
  abandon: abandon(s.abandonReadScript),
  inspect: inspect("r"),
  forceUnlock: forceUnlock("r"),
});
