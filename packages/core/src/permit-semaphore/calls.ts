import type { Operation } from "../engine/operation.ts";
import { callLabel, type ResourceRef } from "../engine/resource-ref.ts";
import { run } from "../engine/run.ts";
import type { PermitSemaphoreKeys } from "../keys.ts";
import { abandonSlots } from "../waiter-queue/abandon-slots.ts";
import { decodeRenewal } from "../lease/ordered-renewal.ts";
import { decodeAcquire, type PermitAcquireReply } from "./codec.ts";
import {
  abandonScript,
  acquireScript,
  changePermitsScript,
  extendScript,
  inspectScript,
  releaseScript,
} from "./scripts.generated.ts";
import type { PermitSemaphoreStatus } from "./types.ts";

// The permit-expirable semaphore's script calls, each through the engine's one entry (keys and
// args by name, the protocol's slots added by the engine).

/** Everything needed to talk about one permit-expirable semaphore. */
export type PermitSemaphoreRef = ResourceRef<PermitSemaphoreKeys>;

const what = callLabel("permit");

const poolKeys = ({ keys }: PermitSemaphoreRef) => ({
  state: keys.state,
  permits: keys.permits,
  versions: keys.versions,
  queue: keys.queue,
  deadlines: keys.queueDeadlines,
});

export async function runAcquire(
  ref: PermitSemaphoreRef,
  p: {
    waiter: string;
    leaseMs: number;
    queue: boolean;
    /** An earlier attempt of this acquire may have queued it. */
    queuedBefore: boolean;
    returnWithinMs: number;
    op: Operation;
    budgetMs: number;
    signal?: AbortSignal | undefined;
  },
): Promise<{ reply: PermitAcquireReply; sentAt: number }> {
  const { ctx, keys } = ref;
  const { reply, sentAt, serverMs } = await run(ctx, acquireScript, {
    what: what(ref, "acquire"),
    keys: { ...poolKeys(ref), fence: keys.fence },
    args: {
      waiter: p.waiter,
      leaseMs: p.leaseMs,
      queue: p.queue ? 1 : 0,
      queuedBefore: p.queuedBefore ? 1 : 0,
      returnWithinMs: p.returnWithinMs,
      claimMs: ctx.claimWindowMs,
      fenceTtlMs: ctx.fenceTtlMs,
      channelPrefix: keys.channelPrefix,
    },
    op: p.op,
    budgetMs: p.budgetMs,
    signal: p.signal,
  });
  return { reply: decodeAcquire(reply, serverMs), sentAt };
}

/**
 * `renewed`: the caller may have renewed the permit (or does not know: `tryRelease` by id), so
 * its lease version entry is deleted with it.
 */
export async function runRelease(
  ref: PermitSemaphoreRef,
  permitId: string,
  op: Operation,
  renewed: boolean,
): Promise<{ released: boolean }> {
  const { ctx, keys } = ref;
  const { reply } = await run(ctx, releaseScript, {
    what: what(ref, "release"),
    keys: { ...poolKeys(ref), fence: keys.fence },
    args: {
      permit: permitId,
      claimMs: ctx.claimWindowMs,
      channelPrefix: keys.channelPrefix,
      fenceTtlMs: ctx.fenceTtlMs,
      renewed: renewed ? 1 : 0,
    },
    op,
  });
  return { released: reply.status === 1 };
}

export interface PermitRenewal {
  readonly status: "renewed" | "stale" | "gone";
  readonly version: number;
  readonly pttl: number;
  readonly sentAt: number;
}

/** One renewal of a permit, ordered by its lease version (see extend.lua). */
export async function runExtend(
  ref: PermitSemaphoreRef,
  p: {
    permitId: string;
    version: number;
    leaseMs: number;
    op: Operation;
    budgetMs: number;
    signal?: AbortSignal | undefined;
  },
): Promise<PermitRenewal> {
  const { reply, sentAt } = await run(ref.ctx, extendScript, {
    what: what(ref, "extend"),
    keys: { permits: ref.keys.permits, versions: ref.keys.versions },
    args: { permit: p.permitId, version: p.version, leaseMs: p.leaseMs },
    op: p.op,
    budgetMs: p.budgetMs,
    signal: p.signal,
  });
  return decodeRenewal(reply, sentAt);
}

export async function runChange(
  ref: PermitSemaphoreRef,
  mode: "set" | "add",
  amount: number,
  op: Operation,
): Promise<{ applied: boolean; available: number; total: number }> {
  const { ctx, keys } = ref;
  const { reply } = await run(ctx, changePermitsScript, {
    what: what(ref, mode === "set" ? "trySetPermits" : "addPermits"),
    keys: { ...poolKeys(ref), fence: keys.fence },
    args: {
      mode,
      amount,
      claimMs: ctx.claimWindowMs,
      channelPrefix: keys.channelPrefix,
      fenceTtlMs: ctx.fenceTtlMs,
    },
    op,
  });
  return { applied: reply.status === 1, available: reply.available, total: reply.total };
}

/**
 * Leaves the queue, tombstones operation `op` and drops the permit under `waiter` (direct grant
 * or abandoned take). Safe to repeat.
 */
export async function runAbandon(
  ref: PermitSemaphoreRef,
  waiter: string,
  op: Operation,
): Promise<number> {
  const { ctx, keys } = ref;
  const slots = abandonSlots(ctx, op, keys.state, keys.channelPrefix);
  const { reply } = await run(ctx, abandonScript, {
    what: what(ref, "abandon"),
    keys: { ...poolKeys(ref), ...slots.keys, fence: keys.fence },
    args: { waiter, ...slots.args, fenceTtlMs: ctx.fenceTtlMs },
  });
  return reply.back;
}

export async function runInspect(ref: PermitSemaphoreRef): Promise<PermitSemaphoreStatus> {
  const { keys } = ref;
  const { reply } = await run(ref.ctx, inspectScript, {
    what: what(ref, "inspect"),
    keys: { state: keys.state, permits: keys.permits, queue: keys.queue },
    args: {},
    readOnly: true,
  });
  const { set, available, total, live, waiters } = reply;
  return { set: set === 1, available, total, live, waiters };
}
