import type { Operation } from "../engine/operation.ts";
import { run } from "../engine/run.ts";
import { UpgradeError } from "../errors.ts";
import { extendFairLayout } from "../fair-lock/calls.ts";
import { decodeQueuedAcquire } from "../fair-lock/codec.ts";
import type { AcquireReply } from "../lock/codec.ts";
import { fairAcquireArgs, queuedReleaseArgs } from "../lock/calls.ts";
import type { LockCalls } from "../lock/lock-shape.ts";
import type { AcquireParams, LockRef } from "../lock/lock-ref.ts";
import { abandon, allKeys, forceUnlock, inspect, what } from "./calls.ts";
import * as s from "./scripts.generated.ts";

// The write side. The writer's hash has the fair lock's layout, so it renews with the fair lock's
// (versioned) extend script.

async function acquireWrite(
  ref: LockRef,
  p: AcquireParams,
): Promise<{ reply: AcquireReply; sentAt: number }> {
  const { ctx } = ref;
  const { k, head } = allKeys(ref);
  const { reply, sentAt, serverMs } = await run(ctx, s.acquireWriteScript, {
    what: what(ref, "write acquire"),
    keys: { ...head, stats: k.stats },
    args: fairAcquireArgs(ref, p),
    op: p.op,
    budgetMs: p.budgetMs,
    signal: p.signal,
  });
  if (reply.status === -2) throw new UpgradeError(ref.name);
  return { reply: decodeQueuedAcquire(reply, serverMs), sentAt };
}

async function releaseWrite(ref: LockRef, fence: number, op: Operation) {
  const { ctx } = ref;
  const { k, head } = allKeys(ref);
  const { reply } = await run(ctx, s.releaseWriteScript, {
    what: what(ref, "write release"),
    keys: { ...head, stats: k.stats },
    args: queuedReleaseArgs(ref, fence),
    op,
  });
  return { released: reply.status === 1, remaining: reply.remaining };
}

export const writeSideCalls: LockCalls = Object.freeze<LockCalls>({
  serializedAs: { kind: "read-write-lock", side: "write" } as const,
  // Its release grants the queue head through the fair lock's grant_head, which publishes the
  // grant; the fair lock's extend (its renewal) claims an unclaimed one: enter on the message.
  grantPush: "enter",
  acquire: acquireWrite,
  release: releaseWrite,
  extend: (ref, p) => extendFairLayout(ref, allKeys(ref).k.lock, p),
  abandon: abandon(s.abandonWriteScript),
  inspect: inspect("w"),
  forceUnlock: forceUnlock("w"),
});
