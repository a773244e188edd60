import { UpgradeError } from "../errors.ts";
import { extendFairHold } from "../fair-lock/ops.ts";
import { readWriteLockKeys } from "../keys.ts";
import { decodeAcquire, decodeExtend, decodeInspect, decodeRelease } from "../lock/codec.ts";
import type { LockOps } from "../lock/flavor.ts";
import { opKey, run, type AcquireParams, type LockRef } from "../lock/ops.ts";
import * as s from "./scripts.generated.ts";

// One function per script call. Both sides run on the Lock's machinery (holds, leases, acquire
// loop, resume) through `readLockOps` / `writeLockOps`; the writer's hash has the fair lock's
// layout, so its renewal is the fair lock's extend script.

/** Every key of the lock, in the order the scripts take them: writer side, then readers. */
function allKeys(ref: LockRef) {
  const k = readWriteLockKeys(ref.ctx.prefix, ref.name);
  return { k, head: [k.lock, k.fence, k.queue, k.queueDeadlines, k.readers, k.readerHolds] };
}

async function acquireWrite(ref: LockRef, p: AcquireParams) {
  const { ctx } = ref;
  const { k, head } = allKeys(ref);
  const { reply, sentAt } = await run(
    ref, s.acquireWriteScript, "write acquire",
    [...head, k.stats, opKey(ref, p.opId)],
    [ref.owner, p.leaseMs, p.queue ? 1 : 0, p.returnWithinMs, ctx.operationRecordTtlMs, ctx.fenceTtlMs, k.channelPrefix],
    true, p.signal,
  );
  if (Array.isArray(reply) && Number(reply[0]) === -2) throw new UpgradeError(ref.name);
  return { reply: decodeAcquire(reply), sentAt };
}

async function acquireRead(ref: LockRef, p: AcquireParams) {
  const { ctx } = ref;
  const { k, head } = allKeys(ref);
  const { reply, sentAt } = await run(
    ref, s.acquireReadScript, "read acquire",
    [...head, k.stats, opKey(ref, p.opId)],
    [ref.owner, p.leaseMs, ctx.operationRecordTtlMs, ctx.fenceTtlMs, k.channelPrefix],
    true, p.signal,
  );
  return { reply: decodeAcquire(reply), sentAt };
}

async function releaseWrite(ref: LockRef, fence: number, opId: string) {
  const { ctx } = ref;
  const { k, head } = allKeys(ref);
  const { reply } = await run(
    ref, s.releaseWriteScript, "write release",
    [...head, k.stats, opKey(ref, opId)],
    [ref.owner, String(fence), ctx.operationRecordTtlMs, ctx.fenceTtlMs, k.channelPrefix, ctx.statsTtlMs],
    true,
  );
  return decodeRelease(reply);
}

async function releaseRead(ref: LockRef, fence: number, opId: string) {
  const { ctx } = ref;
  const { k, head } = allKeys(ref);
  const { reply } = await run(
    ref, s.releaseReadScript, "read release",
    [...head, opKey(ref, opId)],
    [ref.owner, String(fence), ctx.operationRecordTtlMs, ctx.fenceTtlMs, k.channelPrefix],
    true,
  );
  return decodeRelease(reply);
}

async function extendRead(ref: LockRef, fence: number, leaseMs: number) {
  const { k } = allKeys(ref);
  const { reply, sentAt } = await run(ref, s.extendReadScript, "read extend", [k.readers, k.readerHolds], [ref.owner, String(fence), leaseMs], true);
  return { ...decodeExtend(reply), sentAt };
}

function abandon(script: typeof s.abandonReadScript) {
  return async (ref: LockRef, opId: string): Promise<boolean> => {
    const { ctx } = ref;
    const { k, head } = allKeys(ref);
    const { reply } = await run(
      ref, script, script.name,
      [...head, opKey(ref, opId)],
      [ref.owner, ctx.operationRecordTtlMs, ctx.fenceTtlMs, k.channelPrefix],
      true,
    );
    return Array.isArray(reply) && Number(reply[0]) === 1;
  };
}

function inspect(side: "r" | "w") {
  return async (ref: LockRef) => {
    const { k } = allKeys(ref);
    const { reply } = await run(ref, s.inspectScript, "inspect", [k.lock, k.queueDeadlines, k.readers, k.readerHolds], [ref.owner, side], true);
    return decodeInspect(reply);
  };
}

function forceUnlock(side: "r" | "w") {
  return async (ref: LockRef): Promise<boolean> => {
    const { head, k } = allKeys(ref);
    const { reply } = await run(ref, s.forceUnlockScript, "forceUnlock", head, [side, ref.ctx.fenceTtlMs, k.channelPrefix], true);
    return Array.isArray(reply) && Number(reply[0]) === 1;
  };
}

export const writeLockOps: LockOps = Object.freeze({
  kind: "write-lock",
  acquire: acquireWrite,
  release: releaseWrite,
  extend: extendFairHold,
  abandon: abandon(s.abandonWriteScript),
  inspect: inspect("w"),
  forceUnlock: forceUnlock("w"),
});

export const readLockOps: LockOps = Object.freeze({
  kind: "read-lock",
  acquire: acquireRead,
  release: releaseRead,
  extend: extendRead,
  abandon: abandon(s.abandonReadScript),
  inspect: inspect("r"),
  forceUnlock: forceUnlock("r"),
});
