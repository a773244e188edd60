import type { ClientContext } from "../config.ts";
import type { Script } from "../engine/script.ts";
import type { SemaphoreKeys } from "../keys.ts";
import { quarantineArgs, quarantineKey } from "../quarantine/quarantine.ts";
import { runScript as run, settleArgs } from "../semaphore-common/run.ts";
import {
  decodeAcquire,
  decodeChange,
  decodeStatus,
  type PermitsChange,
  type SemaphoreAcquireReply,
} from "./codec.ts";
import {
  abandonScript,
  acquireScript,
  addPermitsScript,
  inspectScript,
  releaseScript,
  trySetPermitsScript,
} from "./scripts.generated.ts";
import type { SemaphoreStatus } from "./types.ts";

/** Everything needed to talk about one semaphore. */
export interface SemaphoreRef {
  readonly ctx: ClientContext;
  readonly name: string;
  readonly keys: SemaphoreKeys;
}

/**
 * The keys every mutating script takes, in its KEYS order: the operation record, then the restart
 * quarantine's sentinel (each may hand permits to waiters: a grant).
 */
function mutationKeys(ref: SemaphoreRef, opId: string): string[] {
  const { keys } = ref;
  return [
    keys.state,
    keys.queue,
    keys.queueDeadlines,
    keys.grants,
    keys.opPrefix + opId,
    quarantineKey(ref.ctx, ref.name),
  ];
}

export async function acquireOnce(
  ref: SemaphoreRef,
  p: {
    waiter: string;
    permits: number;
    queue: boolean;
    returnWithinMs: number;
    opId: string;
    signal?: AbortSignal | undefined;
    deadline?: number | undefined;
  },
): Promise<SemaphoreAcquireReply> {
  const { ctx, keys } = ref;
  const { reply } = await run(
    ref,
    acquireScript,
    "semaphore acquire",
    mutationKeys(ref, p.opId),
    [
      p.waiter,
      p.permits,
      p.queue ? 1 : 0,
      p.returnWithinMs,
      ctx.claimWindowMs,
      ctx.operationRecordTtlMs,
      keys.channelPrefix,
      ...quarantineArgs(ctx),
    ],
    { signal: p.signal, deadline: p.deadline },
  );
  return decodeAcquire(reply);
}

type ChangeScript = "release" | "addPermits" | "trySetPermits";
const CHANGE_SCRIPTS: Record<ChangeScript, Script> = {
  release: releaseScript,
  addPermits: addPermitsScript,
  trySetPermits: trySetPermitsScript,
};

/** release / addPermits / trySetPermits: one exactly-once change of the permits by `amount`. */
export async function changeOnce(
  ref: SemaphoreRef,
  which: ChangeScript,
  amount: number,
  opId: string,
): Promise<PermitsChange> {
  const { reply } = await run(
    ref,
    CHANGE_SCRIPTS[which],
    `semaphore ${which}`,
    mutationKeys(ref, opId),
    [amount, ...settleArgs(ref)],
  );
  return decodeChange(`semaphore ${which}`, reply);
}

/** Leaves the queue and gives back whatever operation `opId` of `waiter` may have taken. Safe to repeat. */
export async function abandonOnce(
  ref: SemaphoreRef,
  waiter: string,
  permits: number,
  opId: string,
): Promise<number> {
  const { reply } = await run(ref, abandonScript, "semaphore abandon", mutationKeys(ref, opId), [
    waiter,
    permits,
    ...settleArgs(ref),
  ]);
  return Array.isArray(reply) ? Number(reply[0]) : 0;
}

export async function inspectOnce(ref: SemaphoreRef): Promise<SemaphoreStatus> {
  const { keys } = ref;
  const { reply } = await run(
    ref,
    inspectScript,
    "semaphore inspect",
    [keys.state, keys.queue, keys.grants],
    [],
    { readOnly: true },
  );
  return decodeStatus(reply);
}
