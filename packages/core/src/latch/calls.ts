import { now } from "../engine/clock.ts";
import { newOperation, type Operation } from "../engine/operation.ts";
import { callLabel, type ResourceRef } from "../engine/resource-ref.ts";
import { run } from "../engine/run.ts";
import type { LatchKeys } from "../keys.ts";
import { countDownScript, getCountScript, trySetCountScript } from "./scripts.generated.ts";

// The latch's script calls, each through the engine's one entry (docs/protocol.md): trySetCount
// and countDown run as operations (every answer recorded, a deadline, settle on give-up,
// tombstones honoured); getCount is a read.

export type LatchRef = ResourceRef<LatchKeys>;

const what = callLabel("latch");

/** An operation id (a test replays one) or an operation already under way. */
const opOf = (op: string | Operation): Operation =>
  typeof op === "string" ? { id: op, deadline: undefined } : op;

export async function runTrySetCount(
  ref: LatchRef,
  count: number,
  ttlMs: number,
  op: string | Operation = newOperation(),
): Promise<boolean> {
  const { reply } = await run(ref.ctx, trySetCountScript, {
    what: what(ref, "trySetCount"),
    keys: { latch: ref.keys.latch },
    args: { count, ttlMs },
    op: opOf(op),
  });
  return reply.status === 1;
}

/** One count-down under `op`: repeating the same operation never counts twice. */
export async function runCountDown(
  ref: LatchRef,
  op: string | Operation = newOperation(),
): Promise<{ counted: boolean; remaining: number }> {
  const { reply } = await run(ref.ctx, countDownScript, {
    what: what(ref, "countDown"),
    keys: { latch: ref.keys.latch },
    args: { channel: ref.keys.channel },
    op: opOf(op),
  });
  return { counted: reply.status === 1, remaining: reply.remaining };
}

/** The count; inside a wait, `deadline` (monotonic ms) ends the read's retries. */
export async function runGetCount(
  ref: LatchRef,
  signal?: AbortSignal,
  deadline?: number,
): Promise<number> {
  const { reply } = await run(ref.ctx, getCountScript, {
    what: what(ref, "getCount"),
    keys: { latch: ref.keys.latch },
    args: {},
    readOnly: true,
    signal,
    ...(deadline === undefined ? {} : { budgetMs: Math.max(1, deadline - now()) }),
  });
  return reply.count;
}
