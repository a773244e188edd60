import { run } from "../engine/run.ts";
import { latestDeadline } from "../engine/server-clocks.ts";
import { decodeRenewal } from "../lease/ordered-renewal.ts";
import type { Operation } from "../engine/operation.ts";
import type { LockKeys } from "../keys.ts";
import { lockInfo, decodeLockAcquire, type AcquireReply, type LockInfo } from "./codec.ts";
import type { ExtendParams, ExtendResult } from "./flavor.ts";
import type { AcquireParams, LockRef } from "./ops.ts";
import {
  abandonScript,
  acquireScript,
  extendScript,
  forceUnlockScript,
  inspectScript,
  releaseScript,
} from "./scripts.generated.ts";

// The Lock's script calls, each through the engine's one entry: keys and args by name (a slot
// that does not match the script's manifest is a compile error), the protocol's slots added by
// the engine.

const what = (ref: LockRef, operation: string) => `${operation} "${ref.name}"`;

/** The keys every queued lock's scripts take first (the Lock's layout and the fair lock's alike). */
export function queueKeys(keys: LockKeys) {
  return { lock: keys.lock, fence: keys.fence, queue: keys.queue, deadlines: keys.queueDeadlines };
}

export async function acquireOnce(
  ref: LockRef,
  p: AcquireParams,
): Promise<{ reply: AcquireReply; sentAt: number }> {
  const { ctx, keys } = ref;
  const { reply, sentAt, serverMs } = await run(ctx, acquireScript, {
    what: what(ref, "acquire"),
    keys: { ...queueKeys(keys), stats: keys.stats },
    args: {
      owner: ref.owner,
      leaseMs: p.leaseMs,
      queue: p.queue ? 1 : 0,
      returnWithinMs: p.returnWithinMs,
      claimMs: ctx.claimWindowMs,
      fenceTtlMs: ctx.fenceTtlMs,
      channelPrefix: keys.channelPrefix,
    },
    op: p.op,
    budgetMs: p.budgetMs,
    signal: p.signal,
  });
  return { reply: decodeLockAcquire(reply, serverMs), sentAt };
}

export async function releaseOnce(ref: LockRef, fence: number, op: Operation) {
  const { ctx, keys } = ref;
  const { reply } = await run(ctx, releaseScript, {
    what: what(ref, "release"),
    keys: { ...queueKeys(keys), stats: keys.stats },
    args: {
      owner: ref.owner,
      fence: String(fence),
      claimMs: ctx.claimWindowMs,
      fenceTtlMs: ctx.fenceTtlMs,
      channelPrefix: keys.channelPrefix,
      statsTtlMs: ctx.statsTtlMs,
    },
    op,
  });
  return { released: reply.status === 1, remaining: reply.remaining };
}

export async function extendOnce(ref: LockRef, p: ExtendParams): Promise<ExtendResult> {
  const { reply, sentAt } = await run(ref.ctx, extendScript, {
    what: what(ref, "extend"),
    keys: { lock: ref.keys.lock },
    args: { owner: ref.owner, fence: String(p.fence), version: p.version, leaseMs: p.leaseMs },
    op: p.op,
    budgetMs: p.budgetMs,
    signal: p.signal,
  });
  return decodeRenewal(reply, sentAt);
}

/**
 * Leaves the queue and undoes whatever `op` may have taken; its copies then do nothing. Safe to
 * repeat. Without the operation's deadline (never sent), the latest any copy could carry stands in.
 */
export async function abandonOnce(ref: LockRef, op: Operation): Promise<boolean> {
  const { ctx, keys } = ref;
  const { reply } = await run(ctx, abandonScript, {
    what: what(ref, "abandon"),
    keys: { ...queueKeys(keys), op: `${keys.opPrefix}${op.id}` },
    args: {
      owner: ref.owner,
      deadline: latestDeadline(ctx, op, keys.lock),
      margin: ctx.recordMarginMs,
      claimMs: ctx.claimWindowMs,
      fenceTtlMs: ctx.fenceTtlMs,
      channelPrefix: keys.channelPrefix,
    },
  });
  return reply.status === 1;
}

export async function inspectOnce(ref: LockRef): Promise<LockInfo> {
  const { reply } = await run(ref.ctx, inspectScript, {
    what: what(ref, "inspect"),
    keys: { lock: ref.keys.lock, queue: ref.keys.queue },
    args: { owner: ref.owner },
    readOnly: true,
  });
  return lockInfo(reply);
}

export async function forceUnlockOnce(ref: LockRef, op: Operation): Promise<boolean> {
  const { ctx, keys } = ref;
  const { reply } = await run(ctx, forceUnlockScript, {
    what: what(ref, "forceUnlock"),
    keys: queueKeys(keys),
    args: {
      claimMs: ctx.claimWindowMs,
      fenceTtlMs: ctx.fenceTtlMs,
      channelPrefix: keys.channelPrefix,
    },
    op,
  });
  return reply.status === 1;
}
