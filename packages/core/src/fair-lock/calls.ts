import { callLabel } from "../engine/resource-ref.ts";
import { run } from "../engine/run.ts";
import { latestDeadline } from "../engine/server-clocks.ts";
import type { Operation } from "../engine/operation.ts";
import { opRecordKey } from "../keys.ts";
import { lockInfo, type AcquireReply, type LockInfo } from "../lock/codec.ts";
import type { ExtendParams, ExtendResult, LockCalls } from "../lock/lock-shape.ts";
import type { AcquireParams, LockRef } from "../lock/lock-ref.ts";
import { decodeRenewal } from "../lease/ordered-renewal.ts";
import { fairAcquireArgs, queueKeys, queuedReleaseArgs, renewalArgs } from "../lock/calls.ts";
import { decodeQueuedAcquire } from "./codec.ts";
import {
  abandonScript,
  acquireScript,
  extendScript,
  forceUnlockScript,
  inspectScript,
  releaseScript,
} from "./scripts.generated.ts";

// The fair lock's script calls, each through the engine's one entry (keys and args by name, the
// protocol's slots added by the engine); the Lock's holds and acquire loop call them through
// `fairLockCalls`.

const what = callLabel("fair");

async function acquire(
  ref: LockRef,
  p: AcquireParams,
): Promise<{ reply: AcquireReply; sentAt: number }> {
  const { ctx, keys } = ref;
  const { reply, sentAt, serverMs } = await run(ctx, acquireScript, {
    what: what(ref, "acquire"),
    keys: { ...queueKeys(keys), stats: keys.stats },
    args: fairAcquireArgs(ref, p),
    op: p.op,
    budgetMs: p.budgetMs,
    signal: p.signal,
  });
  return { reply: decodeQueuedAcquire(reply, serverMs), sentAt };
}

async function release(ref: LockRef, fence: number, op: Operation) {
  const { ctx, keys } = ref;
  const { reply } = await run(ctx, releaseScript, {
    what: what(ref, "release"),
    keys: { ...queueKeys(keys), stats: keys.stats },
    args: queuedReleaseArgs(ref, fence),
    op,
  });
  return { released: reply.status === 1, remaining: reply.remaining };
}

/**
 * A versioned renewal of a hold in the fair lock's layout: the fair lock's, and the read-write
 * lock's writer (`lockKey` its writer hash).
 */
export async function extendFairLayout(
  ref: LockRef,
  lockKey: string,
  p: ExtendParams,
): Promise<ExtendResult> {
  const { reply, sentAt } = await run(ref.ctx, extendScript, {
    what: what(ref, "extend"),
    keys: { lock: lockKey },
    args: renewalArgs(ref, p),
    op: p.op,
    budgetMs: p.budgetMs,
    signal: p.signal,
  });
  return decodeRenewal(reply, sentAt);
}

async function abandon(ref: LockRef, op: Operation): Promise<boolean> {
  const { ctx, keys } = ref;
  const { reply } = await run(ctx, abandonScript, {
    what: what(ref, "abandon"),
    keys: { ...queueKeys(keys), op: opRecordKey(keys.lock, op.id) },
    args: {
      owner: ref.owner,
      deadline: latestDeadline(ctx, op, keys.lock),
      margin: ctx.recordMarginMs,
      fenceTtlMs: ctx.fenceTtlMs,
      channelPrefix: keys.channelPrefix,
    },
  });
  return reply.status === 1;
}

async function inspect(ref: LockRef): Promise<LockInfo> {
  const { reply } = await run(ref.ctx, inspectScript, {
    what: what(ref, "inspect"),
    keys: { lock: ref.keys.lock, deadlines: ref.keys.queueDeadlines },
    args: { owner: ref.owner },
    readOnly: true,
  });
  return lockInfo(reply);
}

async function forceUnlock(ref: LockRef, op: Operation): Promise<boolean> {
  const { ctx, keys } = ref;
  const { reply } = await run(ctx, forceUnlockScript, {
    what: what(ref, "forceUnlock"),
    keys: queueKeys(keys),
    args: { fenceTtlMs: ctx.fenceTtlMs, channelPrefix: keys.channelPrefix },
    op,
  });
  return reply.status === 1;
}

/** The fair lock's scripts, run by the Lock's machinery (holds, leases, acquire loop, resume). */
export const fairLockCalls: LockCalls = Object.freeze<LockCalls>({
  serializedAs: { kind: "fair-lock" } as const,
  // Its grant_head publishes each grant, and its extend claims an unclaimed one: enter on the message.
  grantPush: "enter",
  acquire,
  release,
  extend: (ref, p) => extendFairLayout(ref, ref.keys.lock, p),
  abandon,
  inspect,
  forceUnlock,
});
