import { asError, BackendError, OutcomeUnknownError } from "../errors.ts";
import { now } from "./clock.ts";
import { once } from "./eval-script.ts";
import { type ManifestScript } from "./manifest.ts";
import { TOMBSTONED, TOO_LATE_TO_SETTLE, type Operation } from "./operation.ts";
import { named, splitReply } from "./reply.ts";
import type { EngineContext, RunResult } from "./run.ts";
import { settleScript } from "./scripts.generated.ts";
import type { ServerClock } from "./server-clock.ts";
import { clockFor } from "./server-clocks.ts";
import { sleep } from "./sleep.ts";
import { testSeams } from "../test-seams.ts";

export interface GiveUp {
  readonly what: string;
  readonly op: Operation;
  /** The operation's record key (the engine's first appended key). */
  readonly recordKey: string;
  /** The last ambiguous failure: why the outcome is in doubt. */
  readonly cause: unknown;
  /**
   * When the operation's first copy was sent (monotonic ms): the earliest a recorded answer can
   * have been made, so a lease it granted counts from there, not from the settle.
   */
  readonly firstSent: number;
  /** How many copies of the operation this call sent (`OutcomeUnknownError.attempts`). */
  readonly attempts: number;
  /** The estimate of the clock that judges the operation's deadline (its node's, on a cluster). */
  readonly clock: ServerClock;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Resending can no longer help (the deadline or the budget is spent): one settle request turns
 * the doubt into an answer — the recorded answer when a copy applied, else a tombstone until the
 * deadline plus the margin, after which no copy can apply. Only when settle fails too does the
 * outcome stay unknown, and `OutcomeUnknownError` is thrown once the deadline has surely passed
 * at the server, so that whatever the caller reads next is final.
 */
export async function giveUp<S extends ManifestScript>(
  ctx: EngineContext,
  script: S,
  g: GiveUp,
): Promise<RunResult<S>> {
  const deadline = g.op.deadline!;
  const outcome = await settle(ctx, g, deadline, now());
  const settled = outcome instanceof SettleFailure ? undefined : outcome;
  if (settled !== undefined && settled.tuple[0] !== TOO_LATE_TO_SETTLE) {
    const error = asError(g.cause);
    const applied = settled.tuple[0] !== TOMBSTONED;
    ctx.emit({ type: "settled", operation: g.what, applied, error });
  }
  if (settled !== undefined && settled.tuple[0] === TOMBSTONED)
    throw new BackendError(`${g.what} did not apply (settled after its retries ran out)`, {
      cause: g.cause,
    });
  if (settled !== undefined && settled.tuple[0] !== TOO_LATE_TO_SETTLE) {
    const reply = named(script, g.what, settled.tuple);
    return { reply, sentAt: g.firstSent, serverMs: settled.serverMs, requests: 1 };
  }
  // A repeat may still learn the answer while the record lives (same id, deadline anchored).
  g.op.inDoubt = true;
  // Whatever the caller reads next must be final: no copy may still be in flight to apply. On a
  // cluster a copy may run on the node the slot had at the first send or on the one it has now:
  // the deadline must have passed on both clocks.
  if (!testSeams.unknownBeforeDeadline) {
    const waitMs = Math.max(
      g.clock.msUntilPassed(deadline),
      clockFor(ctx, g.recordKey).msUntilPassed(deadline),
    );
    try {
      await sleep(waitMs, g.signal, g.what);
    } catch (aborted) {
      // The caller stopped waiting (a keeper's renewal, when its hold ended): it gets its
      // AbortedError, and the failures that left the outcome unknown are still made known.
      unknownOutcome(ctx, g, outcome);
      throw aborted;
    }
  }
  throw unknownOutcome(ctx, g, outcome);
}

/** The outcome stays unknown: says so (`outcome-unknown`) with why, the settle's failure included. */
function unknownOutcome(ctx: EngineContext, g: GiveUp, outcome: unknown): OutcomeUnknownError {
  const settleError = outcome instanceof SettleFailure ? outcome.error : undefined;
  const unknown = new OutcomeUnknownError(g.what, g.attempts, g.cause, settleError);
  ctx.emit({ type: "outcome-unknown", operation: g.what, error: unknown });
  return unknown;
}

async function settle(ctx: EngineContext, g: GiveUp, deadline: number, sentAt: number) {
  try {
    const call = {
      operation: `settle ${g.what}`,
      keys: [g.recordKey],
      // "No record" means "not applied" only while the record of the earliest copy that may have
      // applied (anchor + margin) would still live; past that, too late to tell. A tombstone
      // until then outlives every copy's deadline (none is past anchor + margin).
      args: [deadline, Math.max(0, (g.op.anchor ?? deadline) + ctx.recordMarginMs - deadline)],
      retrySafe: true,
    };
    const timeoutMs = ctx.policy.requestTimeoutMs;
    const { reply, at } = await once(ctx.backend, settleScript, call, timeoutMs, () => undefined);
    const split = splitReply(g.what, reply);
    ctx.clocks.observe(at, split.serverMs, sentAt, now());
    return split;
  } catch (error) {
    return new SettleFailure(error); // the settle itself failed: the outcome stays unknown
  }
}

/** A settle request that failed: the outcome stays unknown, and the error tells why. */
class SettleFailure {
  constructor(readonly error: unknown) {}
}
