import type { ClientContext } from "../config.ts";
import { decodeTuple } from "../engine/decode.ts";
import type { PermitSemaphoreKeys } from "../keys.ts";
import { quarantineArgs, quarantineKey } from "../quarantine/quarantine.ts";
import { runScript as run, settleArgs } from "../semaphore-common/run.ts";
import { decodeAcquire, decodeChange, decodeStatus, type PermitAcquireReply } from "./codec.ts";
import {
  abandonScript,
  acquireScript,
  changePermitsScript,
  extendScript,
  inspectScript,
  releaseScript,
} from "./scripts.generated.ts";
import type { PermitSemaphoreStatus } from "./types.ts";

/** Everything needed to talk about one permit-expirable semaphore. */
export interface PermitSemaphoreRef {
  readonly ctx: ClientContext;
  readonly name: string;
  readonly keys: PermitSemaphoreKeys;
}

/** KEYS of every mutating script: the operation record, then the restart quarantine's sentinel. */
function mutationKeys(ref: PermitSemaphoreRef, opId: string): string[] {
  const { keys } = ref;
  return [
    keys.state,
    keys.permits,
    keys.queue,
    keys.queueDeadlines,
    keys.opPrefix + opId,
    quarantineKey(ref.ctx, ref.name),
  ];
}

export async function acquireOnce(
  ref: PermitSemaphoreRef,
  p: {
    waiter: string;
    leaseMs: number;
    queue: boolean;
    returnWithinMs: number;
    opId: string;
    signal?: AbortSignal | undefined;
    deadline?: number | undefined;
  },
): Promise<{ reply: PermitAcquireReply; sentAt: number }> {
  const { ctx, keys } = ref;
  const { reply, sentAt } = await run(
    ref,
    acquireScript,
    "permit acquire",
    [
      keys.state,
      keys.permits,
      keys.queue,
      keys.queueDeadlines,
      keys.fence,
      keys.opPrefix + p.opId,
      quarantineKey(ctx, ref.name),
    ],
    [
      p.waiter,
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

export async function releaseOnce(
  ref: PermitSemaphoreRef,
  permitId: string,
  opId: string,
): Promise<{ released: boolean; available: number }> {
  const { reply } = await run(ref, releaseScript, "permit release", mutationKeys(ref, opId), [
    permitId,
    ...settleArgs(ref),
  ]);
  const [status, available] = decodeTuple("permit release", reply, 2) as [number, number];
  return { released: status === 1, available };
}

export async function extendOnce(
  ref: PermitSemaphoreRef,
  permitId: string,
  leaseMs: number,
  signal?: AbortSignal,
): Promise<{ renewed: boolean; sentAt: number }> {
  const { reply, sentAt } = await run(
    ref,
    extendScript,
    "permit extend",
    [ref.keys.permits],
    [permitId, leaseMs],
    { signal },
  );
  const [status] = decodeTuple("permit extend", reply, 2) as [number, number];
  return { renewed: status === 1, sentAt };
}

export async function changeOnce(
  ref: PermitSemaphoreRef,
  mode: "set" | "add",
  amount: number,
  opId: string,
) {
  const operation = mode === "set" ? "permit trySetPermits" : "permit addPermits";
  const { reply } = await run(ref, changePermitsScript, operation, mutationKeys(ref, opId), [
    mode,
    amount,
    ...settleArgs(ref),
  ]);
  return decodeChange(operation, reply);
}

/** Leaves the queue and drops the permit under `waiter` (direct grant or abandoned take). Safe to repeat. */
export async function abandonOnce(
  ref: PermitSemaphoreRef,
  waiter: string,
  opId: string,
): Promise<number> {
  const { reply } = await run(ref, abandonScript, "permit abandon", mutationKeys(ref, opId), [
    waiter,
    ...settleArgs(ref),
  ]);
  return Array.isArray(reply) ? Number(reply[0]) : 0;
}

export async function inspectOnce(ref: PermitSemaphoreRef): Promise<PermitSemaphoreStatus> {
  const { keys } = ref;
  const { reply } = await run(
    ref,
    inspectScript,
    "permit inspect",
    [keys.state, keys.permits, keys.queue],
    [],
    { readOnly: true },
  );
  return decodeStatus(reply);
}
