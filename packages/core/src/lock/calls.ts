import { callLabel } from "../engine/resource-ref.ts";
import { run } from "../engine/run.ts";
import { latestDeadline } from "../engine/server-clocks.ts";
import { decodeRenewal } from "../lease/ordered-renewal.ts";
import type { Operation } from "../engine/operation.ts";
import type { LockKeys } from "../keys.ts";
import { lockInfo, decodeLockAcquire, type AcquireReply, type LockInfo } from "./codec.ts";
import type { ExtendParams, ExtendResult, LockCalls } from "./lock-shape.ts";
import type { AcquireParams, LockRef } from "./lock-ref.ts";
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

const what = callLabel("");

/** The keys every queued lock's scripts take first (the Lock's layout and the fair lock's alike). */
export function queueKeys(keys: LockKeys) {
  return { lock: keys.lock, fence: keys.fence, queue: keys.queue, deadlines: keys.queueDeadlines };
}

/**
 * The args every queued lock's acquire takes (the Lock's, the fair lock's, the write side's); the
 * Lock's adds its claim window.
 */
export function queuedAcquireArgs(ref: LockRef, p: AcquireParams) {
  return {
    owner: ref.owner,
    leaseMs: p.leaseMs,
    queue: p.queue ? 1 : 0,
    returnWithinMs: p.returnWithinMs,
    fenceTtlMs: ref.ctx.fenceTtlMs,
    channelPrefix: ref.keys.channelPrefix,
  };
}

/** The fair layout's acquire args (the fair lock's, the write side's): the queued ones and whether
 * an earlier attempt may have queued the caller. */
export function fairAcquireArgs(ref: LockRef, p: AcquireParams) {
  return { ...queuedAcquireArgs(ref, p), queuedBefore: p.queuedBefore ? 1 : 0 };
}

/** The args every queued lock's release takes (the Lock's adds its claim window). */
export function queuedReleaseArgs(ref: LockRef, fence: number) {
  return {
    owner: ref.owner,
    fence: String(fence),
    fenceTtlMs: ref.ctx.fenceTtlMs,
    channelPrefix: ref.keys.channelPrefix,
    statsTtlMs: ref.ctx.statsTtlMs,
  };
}

/** The args of every versioned renewal (the Lock's extend, the fair layout's, a reader's). */
export function renewalArgs(ref: LockRef, p: ExtendParams) {
  return { owner: ref.owner, fence: String(p.fence), version: p.version, leaseMs: p.leaseMs };
}

export async function runAcquire(
  ref: LockRef,
  p: AcquireParams,
): Promise<{ reply: AcquireReply; sentAt: number }> {
  const { ctx, keys } = ref;
  const { reply, sentAt, serverMs } = await run(ctx, acquireScript, {
    what: what(ref, "acquire"),
    keys: { ...queueKeys(keys), stats: keys.stats },
    args: {
      ...queuedAcquireArgs(ref, p),
      ...(p.joinOnly ? { queue: 2 } : {}),
      claimMs: ctx.claimWindowMs,
    },
    op: p.op,
    budgetMs: p.budgetMs,
    signal: p.signal,
  });
  return { reply: decodeLockAcquire(reply, serverMs), sentAt };
}

export async function runRelease(ref: LockRef, fence: number, op: Operation) {
  const { ctx, keys } = ref;
  const { reply } = await run(ctx, releaseScript, {
    what: what(ref, "release"),
    keys: { ...queueKeys(keys), stats: keys.stats },
    args: { ...queuedReleaseArgs(ref, fence), claimMs: ctx.claimWindowMs },
    op,
  });
  return { released: reply.status === 1, remaining: reply.remaining };
}

export async function runExtend(ref: LockRef, p: ExtendParams): Promise<ExtendResult> {
  const { reply, sentAt } = await run(ref.ctx, extendScript, {
    what: what(ref, "extend"),
    keys: { lock: ref.keys.lock },
    args: renewalArgs(ref, p),
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
export async function runAbandon(ref: LockRef, op: Operation): Promise<boolean> {
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

export async function runInspect(ref: LockRef): Promise<LockInfo> {
  const { reply } = await run(ref.ctx, inspectScript, {
    what: what(ref, "inspect"),
    keys: { lock: ref.keys.lock, queue: ref.keys.queue },
    args: { owner: ref.owner },
    readOnly: true,
  });
  return lockInfo(reply);
}

export async function runForceUnlock(ref: LockRef, op: Operation): Promise<boolean> {
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

/** The reentrant Lock's own scripts, on the operation protocol. */
export const lockCalls: LockCalls = Object.freeze({
  serializedAs: { kind: "lock" } as const,
  grantPush: "enter",
  acquire: runAcquire,
  release: runRelease,
  extend: runExtend,
  abandon: runAbandon,
  inspect: runInspect,
  forceUnlock: runForceUnlock,
});

/** The script calls behind `ref`: a fair or read-write lock's when it brings its own. */
export function callsOf(ref: LockRef): LockCalls {
  return ref.calls ?? lockCalls;
}
