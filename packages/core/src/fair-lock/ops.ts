import { decodeAcquire, decodeExtend, decodeInspect, decodeRelease } from "../lock/codec.ts";
import { unversionedExtend, type LockOps } from "../lock/flavor.ts";
import type { Operation } from "../engine/operation.ts";
import { opKey, run, type AcquireParams, type LockRef } from "../lock/ops.ts";
import { quarantineArgs, quarantineKey } from "../quarantine/quarantine.ts";
import {
  abandonScript,
  acquireScript,
  extendScript,
  forceUnlockScript,
  inspectScript,
  releaseScript,
} from "./scripts.generated.ts";

// One function per script call, as the Lock's ops; the Lock's holds and acquire loop call them
// through `fairLockOps`. Every mutation carries an operation id (exactly-once) or is idempotent.

/** ARGV of the fair lock's acquire; the read-write lock's write acquire takes the same, slot for slot. */
export function fairAcquireArgs(
  ref: LockRef,
  p: AcquireParams,
  channelPrefix: string,
): (string | number)[] {
  const { ctx } = ref;
  return [
    ref.owner,
    p.leaseMs,
    p.queue ? 1 : 0,
    p.returnWithinMs,
    ctx.operationRecordTtlMs,
    ctx.fenceTtlMs,
    channelPrefix,
    ...quarantineArgs(ctx),
  ];
}

async function acquire(ref: LockRef, p: AcquireParams) {
  const { ctx, keys } = ref;
  const { reply, sentAt } = await run(
    ref,
    acquireScript,
    "fair acquire",
    [
      keys.lock,
      keys.fence,
      keys.queue,
      keys.queueDeadlines,
      keys.stats,
      opKey(ref, p.op.id),
      quarantineKey(ctx, ref.name),
    ],
    fairAcquireArgs(ref, p, keys.channelPrefix),
    { signal: p.signal, deadline: p.deadline },
  );
  return { reply: decodeAcquire(reply), sentAt };
}

async function release(ref: LockRef, fence: number, op: Operation) {
  const { ctx, keys } = ref;
  const { reply } = await run(
    ref,
    releaseScript,
    "fair release",
    [keys.lock, keys.fence, keys.queue, keys.queueDeadlines, keys.stats, opKey(ref, op.id)],
    [
      ref.owner,
      String(fence),
      ctx.operationRecordTtlMs,
      ctx.fenceTtlMs,
      keys.channelPrefix,
      ctx.statsTtlMs,
    ],
  );
  return decodeRelease(reply);
}

/** Also renews the writer of a read-write lock, whose hash has the same layout. */
export async function extendFairHold(
  ref: LockRef,
  fence: number,
  leaseMs: number,
  signal?: AbortSignal,
) {
  const { reply, sentAt } = await run(
    ref,
    extendScript,
    "extend",
    [ref.keys.lock],
    [ref.owner, String(fence), leaseMs],
    { signal },
  );
  return { ...decodeExtend(reply), sentAt };
}

async function abandon(ref: LockRef, op: Operation): Promise<boolean> {
  const { ctx, keys } = ref;
  const { reply } = await run(
    ref,
    abandonScript,
    "fair abandon",
    [keys.lock, keys.fence, keys.queue, keys.queueDeadlines, opKey(ref, op.id)],
    [ref.owner, ctx.operationRecordTtlMs, ctx.fenceTtlMs, keys.channelPrefix],
  );
  return Array.isArray(reply) && Number(reply[0]) === 1;
}

async function inspect(ref: LockRef) {
  const { reply } = await run(
    ref,
    inspectScript,
    "fair inspect",
    [ref.keys.lock, ref.keys.queueDeadlines],
    [ref.owner],
    { readOnly: true },
  );
  return decodeInspect(reply);
}

async function forceUnlock(ref: LockRef): Promise<boolean> {
  const { ctx, keys } = ref;
  const { reply } = await run(
    ref,
    forceUnlockScript,
    "fair forceUnlock",
    [keys.lock, keys.fence, keys.queue, keys.queueDeadlines],
    [ctx.fenceTtlMs, keys.channelPrefix],
  );
  return Array.isArray(reply) && Number(reply[0]) === 1;
}

/** The fair lock's scripts, run by the Lock's machinery (holds, leases, acquire loop, resume). */
export const fairLockOps: LockOps = Object.freeze({
  kind: "fair-lock",
  // Its grant_head publishes each grant; its extend refuses an unclaimed grant, so claim by acquiring.
  grantPush: "claim",
  acquire,
  release,
  extend: unversionedExtend(extendFairHold),
  abandon,
  inspect,
  forceUnlock,
});
