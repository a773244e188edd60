import type { Operation } from "../engine/operation.ts";
import { run } from "../engine/run.ts";
import { decodeQueuedAcquire } from "../fair-lock/codec.ts";
import { decodeRenewal } from "../lease/ordered-renewal.ts";
import type { AcquireReply } from "../lock/codec.ts";
import { renewalArgs } from "../lock/calls.ts";
import type { ExtendParams, ExtendResult, LockCalls } from "../lock/lock-shape.ts";
import type { AcquireParams, LockRef } from "../lock/lock-ref.ts";
import { abandon, allKeys, forceUnlock, inspect, what } from "./calls.ts";
import * as s from "./scripts.generated.ts";

// The read side: each reader has its own lease (and lease version) in the readers zset.

async function acquireRead(
  ref: LockRef,
  p: AcquireParams,
): Promise<{ reply: AcquireReply; sentAt: number }> {
  const { ctx } = ref;
  const { k, head } = allKeys(ref);
  const { reply, sentAt, serverMs } = await run(ctx, s.acquireReadScript, {
    what: what(ref, "read acquire"),
    keys: { ...head, stats: k.stats },
    args: {
      owner: ref.owner,
      leaseMs: p.leaseMs,
      fenceTtlMs: ctx.fenceTtlMs,
      channelPrefix: k.channelPrefix,
    },
    op: p.op,
    budgetMs: p.budgetMs,
    signal: p.signal,
  });
  return { reply: decodeQueuedAcquire(reply, serverMs), sentAt };
}

async function releaseRead(ref: LockRef, fence: number, op: Operation) {
  const { ctx } = ref;
  const { k, head } = allKeys(ref);
  const { reply } = await run(ctx, s.releaseReadScript, {
    what: what(ref, "read release"),
    keys: head,
    args: {
      owner: ref.owner,
      fence: String(fence),
      fenceTtlMs: ctx.fenceTtlMs,
      channelPrefix: k.channelPrefix,
    },
    op,
  });
  return { released: reply.status === 1, remaining: reply.remaining };
}

async function extendRead(ref: LockRef, p: ExtendParams): Promise<ExtendResult> {
  const { k } = allKeys(ref);
  const { reply, sentAt } = await run(ref.ctx, s.extendReadScript, {
    what: what(ref, "read extend"),
    keys: { readers: k.readers, holds: k.readerHolds },
    args: renewalArgs(ref, p),
    op: p.op,
    budgetMs: p.budgetMs,
    signal: p.signal,
  });
  return decodeRenewal(reply, sentAt);
}

export const readSideCalls: LockCalls = Object.freeze({
  serializedAs: { kind: "read-write-lock", side: "read" } as const,
  // A writer's release that readers wait for publishes `free` on the name's channel.
  grantPush: "wake",
  acquire: acquireRead,
  release: releaseRead,
  extend: extendRead,
  abandon: abandon(s.abandonReadScript),
  inspect: inspect("r"),
  forceUnlock: forceUnlock("r"),
});
