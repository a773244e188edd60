import type { ClientContext } from "../config.ts";
import { evalScript, type EvalResult, type RunOptions } from "../engine/eval-script.ts";
import type { Script } from "../engine/script.ts";
import { quarantineArgs } from "../quarantine/quarantine.ts";

/** What the semaphores' script runner needs of a handle: its client and its name (for messages). */
export interface NamedRef {
  readonly ctx: ClientContext;
  readonly name: string;
}

/**
 * Runs one of a semaphore's scripts. Every one is read-only, idempotent (extend) or guarded by an
 * operation id, so every call is retry-safe.
 */
export function runScript(
  ref: NamedRef,
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

/**
 * The ARGV tail of every mutating semaphore script but acquire, in its order: the operation
 * record's TTL, the claim window of the grants it may make, the wake-up channel prefix, then the
 * restart quarantine's arguments.
 */
export function settleArgs(
  ref: NamedRef & { readonly keys: { readonly channelPrefix: string } },
): (string | number)[] {
  const { ctx } = ref;
  return [
    ctx.operationRecordTtlMs,
    ctx.claimWindowMs,
    ref.keys.channelPrefix,
    ...quarantineArgs(ctx),
  ];
}
