import { now } from "../engine/clock.ts";
import type { ClientContext } from "../client-context.ts";
import type { WaitHint } from "./strategy.ts";
import type { GrantStream } from "./push-stream.ts";
import { waitTurn, type WakeParams } from "./wait-turn.ts";

/**
 * What a primitive's attempt reports when busy (the server's answer); the loop adds the rest of
 * the `WaitHint`. A timed-out acquire carries the last one as `AcquireTimeoutError.hint`.
 */
export type ServerHint = Omit<
  WaitHint,
  "attempt" | "budgetMs" | "rttMs" | "rttDevMs" | "pushed" | "claimWindowMs"
>;
export type AttemptOutcome<T> = { readonly granted: T } | { readonly busy: ServerHint };
export type { WakeParams, WakeAction, WakeContext } from "./wait-turn.ts";

export interface WaitLoopParams<T> {
  /** The client's wait strategy, request timeout and event sink. */
  readonly ctx: Pick<ClientContext, "wait" | "policy" | "emit">;
  readonly name: string;
  readonly waitMs: number;
  readonly signal: AbortSignal | undefined;
  /**
   * One attempt. `queue`: join (or stay in) the waiter queue when busy; `returnWithinMs`: the
   * waiter's promise to the server to poll again within that time (later, it may be evicted);
   * `deadline`: the wait's budget (monotonic ms: start + `waitMs` + one request timeout), which
   * the attempt's requests and retries must not outlast.
   */
  attempt(queue: boolean, returnWithinMs: number, deadline: number): Promise<AttemptOutcome<T>>;
  /** Called once when the loop gives up while queued (timeout or abort): leave the queue. */
  leave(): void;
  /**
   * Push: while queued (behind at least one other waiter) listen on the channel where the server
   * announces a direct grant, where the backend offers it. Absent: poll only.
   */
  readonly wake?: WakeParams<T> | undefined;
  /** How long a direct grant stays reserved; every sleep of a queued waiter stays inside it. */
  readonly claimWindowMs?: number | undefined;
}

export type WaitResult<T> =
  | { readonly granted: T; readonly attempts: number; readonly waitedMs: number }
  | {
      readonly granted?: undefined;
      readonly attempts: number;
      readonly waitedMs: number;
      /** The last busy answer the loop saw (undefined when there was none). */
      readonly hint: ServerHint | undefined;
    };

/** Streams opened per wait at most: a backend that keeps refusing them costs no more. */
const MAX_STREAMS = 2;

/**
 * The acquire loop every waiting primitive shares: attempt, and when busy sleep as the strategy
 * says — never past the holder's remaining lease nor the caller's budget — then attempt again.
 * A queued waiter behind others also listens for its grant (push), and a grant message may end
 * the wait without another request. `signal` aborts a sleep at once.
 */
export async function waitLoop<T>(params: WaitLoopParams<T>): Promise<WaitResult<T>> {
  const start = now();
  const { waitMs, wake } = params;
  const { wait: strategy, emit } = params.ctx;
  const { requestTimeoutMs } = params.ctx.policy;
  // The whole wait, a request in flight at its end included, returns within this.
  const deadline = start + waitMs + requestTimeoutMs;
  let queued = false;
  let rttMs: number | undefined;
  let rttDevMs = 0;
  let stream: GrantStream | undefined;
  let streams = 0;
  let lastBusy: ServerHint | undefined;
  // A client that waited on this name a moment ago is in a loop of acquires: a stream it opens
  // now serves its next waits too (it lingers), so its head listens as well.
  let looping: boolean | undefined;
  const result = (attempts: number, granted?: T): WaitResult<T> =>
    granted === undefined
      ? { attempts, waitedMs: now() - start, hint: lastBusy }
      : { granted, attempts, waitedMs: now() - start };
  try {
    for (let attempt = 1; ; attempt++) {
      const budget = waitMs - (now() - start);
      const returnWithin = Math.ceil(
        Math.min(strategy.maxDelayMs, Math.max(budget, 0)) + requestTimeoutMs,
      );
      const sentAt = now();
      const outcome = await params.attempt(budget > 0, returnWithin, deadline);
      const replyAt = now();
      const rtt = replyAt - sentAt;
      rttDevMs = rttMs === undefined ? 0 : rttDevMs + (Math.abs(rtt - rttMs) - rttDevMs) / 4;
      rttMs = rttMs === undefined ? rtt : rttMs + (rtt - rttMs) / 4;
      if ("granted" in outcome) return result(attempt, outcome.granted);
      lastBusy = outcome.busy;
      if (outcome.busy.reason === "quarantine") {
        emit({
          type: "quarantined",
          name: params.name,
          remainingMs: Math.round(outcome.busy.remainingLeaseMs),
        });
      }
      // Once queued, stay queued until granted or left: a last try-only attempt reports no position.
      queued = queued || outcome.busy.position > 0;
      if (waitMs - (replyAt - start) <= 0) {
        if (queued) params.leave();
        queued = false;
        return result(attempt);
      }
      const shared = wake?.shared;
      if (looping === undefined) {
        looping = shared?.waitedRecently() === true;
        shared?.note();
      }
      // The head polls just in time when the server's statistics say when its turn comes, unless
      // listening costs no request (the client's stream on the name is live) or will be repaid
      // by its next waits (a loop); without them (the semaphores keep none) it listens too, or it
      // would learn of its grant by backoff.
      const head = outcome.busy.position === 1;
      const joinsLive = shared?.live() === true;
      const listens =
        wake?.unqueued === true ||
        outcome.busy.position >= (outcome.busy.meanHoldMs > 0 ? 2 : 1) ||
        (head && (joinsLive || looping));
      if (wake && listens && (stream === undefined || stream.closed) && streams < MAX_STREAMS) {
        stream = wake.open();
        streams++;
      }
      // A stream not live yet goes live about a round trip from now; a grant to this head in
      // between would go unheard until the safety poll (up to the claim window): ask again once
      // live. Where one release grants several (permits released together), any queued waiter
      // may be granted in between. (Joining the client's live stream, such a grant was kept for
      // the waiter.)
      const grantable = head || (wake?.grantsSeveral === true && queued);
      const attemptWhenLive =
        grantable && !joinsLive && wake?.unqueued !== true && stream !== undefined && !stream.live;
      const woken = await waitTurn({
        params,
        start,
        attempt,
        busy: outcome.busy,
        sentAt,
        replyAt,
        rttMs,
        rttDevMs,
        stream,
        attemptWhenLive,
      });
      if (woken !== undefined) return result(attempt, woken.granted);
    }
  } catch (error) {
    if (queued) params.leave();
    throw error;
  } finally {
    stream?.close();
  }
}
