import { now } from "../engine/clock.ts";
import { newOperation, oncePerOperation, type Operation } from "../engine/operation.ts";
import type { ResourceRef } from "../engine/resource-ref.ts";
import { AbortedError, AcquireTimeoutError, OutcomeUnknownError } from "../errors.ts";
import { testSeams } from "../test-seams.ts";
import { grantStreamState, grantSubscribe } from "../wait/shared-grant-stream.ts";
import { PushStream } from "../wait/push-stream.ts";
import { waitLoop, type AttemptOutcome, type WakeParams } from "../wait/wait-loop.ts";

export interface WaiterAcquire<T> {
  /** The semaphore; its scripts announce a direct grant on `keys.channelPrefix + waiter`. */
  readonly ref: ResourceRef<{ readonly channelPrefix: string }>;
  /** This call's waiter id, the same for every attempt (the caller keeps it). */
  readonly waiter: string;
  readonly waitMs: number;
  readonly signal: AbortSignal | undefined;
  /** One attempt as one operation of the protocol (see docs/protocol.md). */
  attempt(p: {
    op: Operation;
    queue: boolean;
    returnWithinMs: number;
    /** How long after sending a copy may still apply: what is left of the wait's budget. */
    budgetMs: number;
  }): Promise<AttemptOutcome<T>>;
  /** Undoes operation `op` (leave the queue, tombstone it, give back what it took). Safe to repeat. */
  abandon(op: Operation): Promise<unknown>;
  /**
   * What a grant message means (see `WakeParams.onMessage`): a primitive whose grant is a lease
   * enters on it; absent, the message only wakes the waiter, whose next attempt claims (one
   * request).
   */
  readonly onMessage?: WakeParams<T>["onMessage"];
}

/**
 * The waiting acquire shared by both semaphores: one waiter id per call (the caller keeps it),
 * one operation per attempt, through the shared `waitLoop`, whose sleeps stay inside the claim
 * window of a direct grant (finding 8: a head that slept past it would lose its turn). When the
 * caller gives up (abort, timeout, unknown outcome) the last attempt is abandoned in the
 * background, which leaves the queue and gives back whatever that attempt or a direct grant may
 * have reserved. Throws `AcquireTimeoutError` when the wait runs out.
 */
export async function acquireAsWaiter<T>(
  p: WaiterAcquire<T>,
): Promise<{ readonly granted: T; readonly waitedMs: number; readonly attempts: number }> {
  const { ctx, name, keys } = p.ref;
  if (p.signal?.aborted) throw new AbortedError(`acquire "${name}"`, p.signal.reason);
  let lastOp: Operation | undefined;
  const abandon = oncePerOperation((op) => {
    ctx.background(
      p
        .abandon(op)
        .then((back) => ctx.emit({ type: "abandoned", name, releasedSomething: Boolean(back) })),
    );
  });
  // Push: a grant message wakes the waiter, whose next attempt claims the grant (one request),
  // or, where the primitive says so, is the grant itself.
  const subscribe = grantSubscribe(ctx.backend, keys.channelPrefix);
  const channel = keys.channelPrefix + p.waiter;
  const shared = grantStreamState(ctx.backend, keys.channelPrefix);
  const wake = subscribe && {
    channel,
    open: () => new PushStream(subscribe, channel),
    shared,
    // Permits released together grant as many waiters at once.
    grantsSeveral: true,
    ...(p.onMessage && { onMessage: p.onMessage }),
  };
  const result = await waitLoop<T>({
    ctx,
    name,
    waitMs: p.waitMs,
    signal: p.signal,
    claimWindowMs: testSeams.waiterIgnoresClaimWindow ? undefined : ctx.claimWindowMs,
    wake,
    leave: () => abandon(lastOp),
    attempt: async (queue, returnWithinMs, deadline) => {
      const op = (lastOp = newOperation());
      const budgetMs = Math.max(1, Math.ceil(deadline - now()));
      try {
        return await p.attempt({ op, queue, returnWithinMs, budgetMs });
      } catch (error) {
        // The request may have run: undo it in the background rather than leak permits.
        if (error instanceof AbortedError || error instanceof OutcomeUnknownError) abandon(op);
        throw error;
      }
    },
  });
  const waitedMs = Math.round(result.waitedMs);
  // Narrowed by the timed-out member's `hint`: T itself may be falsy.
  if ("hint" in result) throw new AcquireTimeoutError(name, waitedMs, result.attempts, result.hint);
  return { granted: result.granted, waitedMs, attempts: result.attempts };
}
