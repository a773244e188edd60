import type { ClientContext } from "../config.ts";
import { AbortedError, OutcomeUnknownError } from "../errors.ts";
import { randomId } from "../ids.ts";
import { waitLoop, type AttemptOutcome, type WaitResult } from "../wait/wait-loop.ts";

export interface WaiterAcquire<T> {
  readonly ctx: ClientContext;
  readonly name: string;
  readonly waitMs: number;
  readonly signal: AbortSignal | undefined;
  /** One attempt under a fresh operation id; "abandoned" when a late copy met its abandon mark. */
  attempt(p: {
    opId: string;
    queue: boolean;
    returnWithinMs: number;
    /** The wait's budget (monotonic ms), which the attempt's requests and retries must not outlast. */
    deadline: number;
  }): Promise<AttemptOutcome<T> | "abandoned">;
  /** Undoes operation `opId` (leave the queue, give back what it took). Safe to repeat. */
  abandon(opId: string): Promise<unknown>;
}

/**
 * The waiting acquire shared by both semaphores: one waiter id per call (the caller keeps it),
 * one operation id per attempt, through the shared `waitLoop`. When the caller gives up (abort,
 * timeout, unknown outcome) the last attempt is abandoned in the background, which leaves the
 * queue and gives back whatever that attempt or a direct grant may have reserved.
 */
export async function acquireAsWaiter<T>(p: WaiterAcquire<T>): Promise<WaitResult<T>> {
  if (p.signal?.aborted) throw new AbortedError(`acquire "${p.name}"`, p.signal.reason);
  let lastOp = "";
  const abandon = (opId: string) =>
    p.ctx.background(
      p
        .abandon(opId)
        .then((back) =>
          p.ctx.emit({ type: "abandoned", name: p.name, releasedSomething: Boolean(back) }),
        ),
    );
  return waitLoop<T>({
    name: p.name,
    waitMs: p.waitMs,
    signal: p.signal,
    strategy: p.ctx.wait,
    requestTimeoutMs: p.ctx.policy.requestTimeoutMs,
    emit: p.ctx.emit,
    leave: () => abandon(lastOp),
    attempt: async (queue, returnWithinMs, deadline) => {
      const opId = (lastOp = randomId());
      try {
        const outcome = await p.attempt({ opId, queue, returnWithinMs, deadline });
        return outcome === "abandoned"
          ? { busy: { remainingLeaseMs: 0, position: 0, meanHoldMs: 0, holdAgeMs: 0 } }
          : outcome;
      } catch (error) {
        // The request may have run: undo it in the background rather than leak permits.
        if (error instanceof AbortedError || error instanceof OutcomeUnknownError) abandon(opId);
        throw error;
      }
    },
  });
}
