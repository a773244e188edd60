import type { Operation } from "../engine/operation.ts";
import { callLabel, type ResourceRef } from "../engine/resource-ref.ts";
import { run } from "../engine/run.ts";
import type { SemaphoreKeys } from "../keys.ts";
import { abandonSlots } from "../waiter-queue/abandon-slots.ts";
import { decodeAcquire, type PermitsChange, type SemaphoreAcquireReply } from "./codec.ts";
import {
  abandonScript,
  acquireScript,
  addPermitsScript,
  inspectScript,
  releaseScript,
  trySetPermitsScript,
} from "./scripts.generated.ts";
import type { SemaphoreStatus } from "./types.ts";

// The semaphore's script calls, each through the engine's one entry: keys and args by name (a
// slot that does not match the script's manifest is a compile error), the protocol's slots (the
// operation record, the quarantine sentinel, the deadline) added by the engine.

/** Everything needed to talk about one semaphore. */
export type SemaphoreRef = ResourceRef<SemaphoreKeys>;

const what = callLabel("semaphore");

const stateKeys = ({ keys }: SemaphoreRef) => ({
  state: keys.state,
  queue: keys.queue,
  deadlines: keys.queueDeadlines,
  grants: keys.grants,
});

export async function runAcquire(
  ref: SemaphoreRef,
  p: {
    waiter: string;
    permits: number;
    queue: boolean;
    returnWithinMs: number;
    op: Operation;
    budgetMs: number;
    signal?: AbortSignal | undefined;
  },
): Promise<{ reply: SemaphoreAcquireReply; sentAt: number }> {
  const { ctx, keys } = ref;
  const { reply, sentAt, serverMs } = await run(ctx, acquireScript, {
    what: what(ref, "acquire"),
    keys: stateKeys(ref),
    args: {
      waiter: p.waiter,
      permits: p.permits,
      queue: p.queue ? 1 : 0,
      returnWithinMs: p.returnWithinMs,
      claimMs: ctx.claimWindowMs,
      channelPrefix: keys.channelPrefix,
    },
    op: p.op,
    budgetMs: p.budgetMs,
    signal: p.signal,
  });
  return { reply: decodeAcquire(reply, serverMs), sentAt };
}

type ChangeScript = "release" | "addPermits" | "trySetPermits";

/** release / addPermits / trySetPermits: one exactly-once change of the permits by `amount`. */
export async function runChange(
  ref: SemaphoreRef,
  which: ChangeScript,
  amount: number,
  op: Operation,
): Promise<PermitsChange> {
  const { ctx, keys } = ref;
  const common = {
    what: what(ref, which),
    keys: stateKeys(ref),
    op,
  };
  const slots = { claimMs: ctx.claimWindowMs, channelPrefix: keys.channelPrefix };
  const { reply } =
    which === "release"
      ? await run(ctx, releaseScript, { ...common, args: { permits: amount, ...slots } })
      : which === "addPermits"
        ? await run(ctx, addPermitsScript, { ...common, args: { delta: amount, ...slots } })
        : await run(ctx, trySetPermitsScript, { ...common, args: { permits: amount, ...slots } });
  return { applied: reply.status === 1, available: reply.available, total: reply.total };
}

/**
 * Leaves the queue, tombstones operation `op` of `waiter` and gives back whatever it (or a direct
 * grant to the waiter) took. Safe to repeat: `again` says this was a repeat and changed nothing.
 */
export async function runAbandon(
  ref: SemaphoreRef,
  waiter: string,
  permits: number,
  op: Operation,
): Promise<{ back: number; again: boolean }> {
  const { ctx, keys } = ref;
  const slots = abandonSlots(ctx, op, keys.state, keys.channelPrefix);
  const { reply } = await run(ctx, abandonScript, {
    what: what(ref, "abandon"),
    keys: { ...stateKeys(ref), ...slots.keys },
    args: { waiter, permits, ...slots.args },
  });
  return { back: reply.back, again: reply.again === 1 };
}

export async function runInspect(ref: SemaphoreRef): Promise<SemaphoreStatus> {
  const { keys } = ref;
  const { reply } = await run(ref.ctx, inspectScript, {
    what: what(ref, "inspect"),
    keys: { state: keys.state, queue: keys.queue, grants: keys.grants },
    args: {},
    readOnly: true,
  });
  const { set, available, total, waiters } = reply;
  return { set: set === 1, available, total, waiters };
}
