import type { ClientContext } from "../config.ts";
import { evalScript, type EvalResult, type RunOptions } from "../engine/eval-script.ts";
import type { Script } from "../engine/script.ts";
import type { LockKeys } from "../keys.ts";
import { quarantineArgs, quarantineKey } from "../quarantine/quarantine.ts";
import {
  decodeAcquire,
  decodeExtend,
  decodeInspect,
  decodeRelease,
  type AcquireReply,
  type LockInfo,
} from "./codec.ts";
import type { LockOps } from "./flavor.ts";
import {
  abandonScript,
  acquireScript,
  extendScript,
  forceUnlockScript,
  inspectScript,
  releaseScript,
} from "./scripts.generated.ts";

/** Everything needed to talk about one lock as one owner. */
export interface LockRef {
  readonly ctx: ClientContext;
  readonly name: string;
  readonly owner: string;
  readonly keys: LockKeys;
  /** The scripts behind this handle (a fair or read-write lock's); the Lock's own when absent. */
  readonly ops?: LockOps;
}

export interface AcquireParams {
  readonly leaseMs: number;
  readonly queue: boolean;
  readonly returnWithinMs: number;
  readonly opId: string;
  readonly signal?: AbortSignal | undefined;
  /** The wait's budget (monotonic ms), which this attempt's requests and retries must not outlast. */
  readonly deadline?: number | undefined;
}

/** Runs one of a lock's scripts; every one is read-only, idempotent or guarded by an operation id. */
export function run(
  ref: LockRef,
  script: Script,
  operation: string,
  keys: string[],
  args: (string | number)[],
  how: RunOptions = {},
): Promise<EvalResult> {
  return evalScript(
    ref.ctx.backend,
    script,
    { operation: `${operation} "${ref.name}"`, keys, args, retrySafe: true, ...how },
    ref.ctx.policy,
    ref.ctx.emit,
  );
}

export function opKey(ref: LockRef, opId: string): string {
  return ref.keys.opPrefix + opId;
}

export async function acquireOnce(
  ref: LockRef,
  p: AcquireParams,
): Promise<{ reply: AcquireReply; sentAt: number }> {
  const { ctx, keys } = ref;
  const { reply, sentAt } = await run(
    ref,
    acquireScript,
    "acquire",
    [
      keys.lock,
      keys.fence,
      keys.queue,
      keys.queueDeadlines,
      keys.stats,
      opKey(ref, p.opId),
      quarantineKey(ctx, ref.name),
    ],
    [
      ref.owner,
      p.leaseMs,
      p.queue ? 1 : 0,
      p.returnWithinMs,
      ctx.claimWindowMs,
      ctx.operationRecordTtlMs,
      ctx.fenceTtlMs,
      keys.channelPrefix,
      ...quarantineArgs(ctx),
    ],
    { signal: p.signal, deadline: p.deadline },
  );
  return { reply: decodeAcquire(reply), sentAt };
}

export async function releaseOnce(ref: LockRef, fence: number, opId: string) {
  const { ctx, keys } = ref;
  const { reply } = await run(
    ref,
    releaseScript,
    "release",
    [keys.lock, keys.fence, keys.queue, keys.queueDeadlines, keys.stats, opKey(ref, opId)],
    [
      ref.owner,
      String(fence),
      ctx.operationRecordTtlMs,
      ctx.claimWindowMs,
      ctx.fenceTtlMs,
      keys.channelPrefix,
      ctx.statsTtlMs,
    ],
  );
  return decodeRelease(reply);
}

export async function extendOnce(
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

/** Leaves the queue and undoes whatever operation `opId` may have taken. Safe to repeat. */
export async function abandonOnce(ref: LockRef, opId: string): Promise<boolean> {
  const { ctx, keys } = ref;
  const { reply } = await run(
    ref,
    abandonScript,
    "abandon",
    [keys.lock, keys.fence, keys.queue, keys.queueDeadlines, opKey(ref, opId)],
    [ref.owner, ctx.operationRecordTtlMs, ctx.claimWindowMs, ctx.fenceTtlMs, keys.channelPrefix],
  );
  return Array.isArray(reply) && Number(reply[0]) === 1;
}

export async function inspectOnce(ref: LockRef): Promise<LockInfo> {
  const { reply } = await run(
    ref,
    inspectScript,
    "inspect",
    [ref.keys.lock, ref.keys.queue],
    [ref.owner],
    { readOnly: true },
  );
  return decodeInspect(reply);
}

export async function forceUnlockOnce(ref: LockRef): Promise<boolean> {
  const { ctx, keys } = ref;
  const { reply } = await run(
    ref,
    forceUnlockScript,
    "forceUnlock",
    [keys.lock, keys.fence, keys.queue, keys.queueDeadlines],
    [ctx.claimWindowMs, ctx.fenceTtlMs, keys.channelPrefix],
  );
  return Array.isArray(reply) && Number(reply[0]) === 1;
}
