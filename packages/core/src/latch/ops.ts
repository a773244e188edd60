import type { ClientContext } from "../config.ts";
import { decodeTuple } from "../engine/decode.ts";
import { evalScript, type RunOptions } from "../engine/eval-script.ts";
import type { Script } from "../engine/script.ts";
import type { LatchKeys } from "../keys.ts";
import { countDownScript, getCountScript, trySetCountScript } from "./scripts.generated.ts";

export interface LatchRef {
  readonly ctx: ClientContext;
  readonly name: string;
  readonly keys: LatchKeys;
}

async function run(
  ref: LatchRef,
  script: Script,
  operation: string,
  keys: string[],
  args: (string | number)[],
  how: RunOptions = {},
): Promise<[number, number]> {
  // Read-only or guarded by an operation id: every latch script is retry-safe.
  const call = { operation: `${operation} "${ref.name}"`, keys, args, retrySafe: true, ...how };
  const { reply } = await evalScript(ref.ctx.backend, script, call, ref.ctx.policy, ref.ctx.emit);
  return decodeTuple(operation, reply, 2) as [number, number];
}

export async function trySetCountOnce(
  ref: LatchRef,
  count: number,
  ttlMs: number,
  opId: string,
): Promise<boolean> {
  const { ctx, keys } = ref;
  const [status] = await run(
    ref,
    trySetCountScript,
    "latch trySetCount",
    [keys.latch, keys.opPrefix + opId],
    [count, ttlMs, ctx.operationRecordTtlMs, keys.channel],
  );
  return status === 1;
}

/** One count-down under `opId`: repeating the same id never counts twice. */
export async function countDownOnce(
  ref: LatchRef,
  opId: string,
): Promise<{ counted: boolean; remaining: number }> {
  const { ctx, keys } = ref;
  const [status, remaining] = await run(
    ref,
    countDownScript,
    "latch countDown",
    [keys.latch, keys.opPrefix + opId],
    [ctx.operationRecordTtlMs, keys.channel],
  );
  return { counted: status === 1, remaining };
}

export async function getCountOnce(
  ref: LatchRef,
  signal?: AbortSignal,
  deadline?: number,
): Promise<number> {
  const how = { readOnly: true, signal, deadline };
  const [count] = await run(ref, getCountScript, "latch getCount", [ref.keys.latch], [], how);
  return count;
}
