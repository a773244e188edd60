import { now } from "../engine/clock.ts";
import { sleep } from "../engine/sleep.ts";
import type { EventSink } from "../events.ts";
import type { WaitHint, WaitStrategy } from "./strategy.ts";

export type ServerHint = Omit<WaitHint, "attempt" | "budgetMs">;
export type AttemptOutcome<T> = { readonly granted: T } | { readonly busy: ServerHint };

export interface WaitLoopParams<T> {
  readonly name: string;
  readonly waitMs: number;
  readonly signal: AbortSignal | undefined;
  readonly strategy: WaitStrategy;
  readonly requestTimeoutMs: number;
  readonly emit: EventSink;
  /**
   * One attempt. `queue`: join (or stay in) the waiter queue when busy; `returnWithinMs`: the
   * waiter's promise to the server to poll again within that time (later, it may be evicted).
   */
  attempt(queue: boolean, returnWithinMs: number): Promise<AttemptOutcome<T>>;
  /** Called once when the loop gives up while queued (timeout or abort): leave the queue. */
  leave(): void;
}

export type WaitResult<T> =
  | { readonly granted: T; readonly attempts: number; readonly waitedMs: number }
  | { readonly granted?: undefined; readonly attempts: number; readonly waitedMs: number };

/**
 * The acquire loop every waiting primitive shares: attempt, and when busy sleep as the strategy
 * says — never past the holder's remaining lease nor the caller's budget — then attempt again.
 * `signal` aborts a sleep at once.
 */
export async function waitLoop<T>(params: WaitLoopParams<T>): Promise<WaitResult<T>> {
  const start = now();
  const { strategy, waitMs } = params;
  let queued = false;
  for (let attempt = 1; ; attempt++) {
    const budget = waitMs - (now() - start);
    const willWait = budget > 0;
    const returnWithin = Math.ceil(Math.min(strategy.maxDelayMs, Math.max(budget, 0)) + params.requestTimeoutMs);
    let outcome: AttemptOutcome<T>;
    try {
      outcome = await params.attempt(willWait, returnWithin);
    } catch (error) {
      if (queued) params.leave();
      throw error;
    }
    if ("granted" in outcome) return { granted: outcome.granted, attempts: attempt, waitedMs: now() - start };
    queued = outcome.busy.position > 0;
    const left = waitMs - (now() - start);
    if (left <= 0) {
      if (queued) params.leave();
      return { attempts: attempt, waitedMs: now() - start };
    }
    const hint: WaitHint = { ...outcome.busy, attempt, budgetMs: left };
    const wanted = strategy.nextDelay(hint);
    const cap = Math.min(left, outcome.busy.remainingLeaseMs > 0 ? outcome.busy.remainingLeaseMs : left);
    const delay = Math.max(0, Math.min(wanted, cap));
    params.emit({ type: "waited", name: params.name, attempt, sleepMs: delay, position: outcome.busy.position, remainingLeaseMs: outcome.busy.remainingLeaseMs });
    try {
      await sleep(delay, params.signal, `acquire "${params.name}"`);
    } catch (error) {
      if (queued) params.leave();
      throw error;
    }
  }
}
