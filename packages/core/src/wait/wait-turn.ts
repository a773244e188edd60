import { now } from "../engine/clock.ts";
import { claimCap } from "./claim-cap.ts";
import { sleep } from "../engine/sleep.ts";
import type { GrantStream } from "./push-stream.ts";
import type { GrantStreamState } from "./shared-grant-stream.ts";
import type { WaitHint } from "./strategy.ts";
import type { ServerHint, WaitLoopParams } from "./wait-loop.ts";

/** What the waiter knew when a grant message came: no grant it announces can be older. */
export interface WakeContext {
  /** Monotonic ms when the last busy attempt was sent: the grant happened after it. */
  readonly sentAt: number;
  /** That attempt's answer (its `serverMs`, when given, tells a stale grant from a new one). */
  readonly hint: ServerHint;
  /** Measured round trip, ms. */
  readonly rttMs: number;
}

/**
 * `granted`: the message itself made the acquisition; `attempt`: ask at once; `stale`: keep
 * waiting; `attemptInMs`: keep listening, and ask no later than that (a message that completes
 * only with another one, expected within moments: a multi-lock's names are handed on together).
 */
export type WakeAction<T> =
  { readonly granted: T } | "attempt" | "stale" | { readonly attemptInMs: number };

export interface WakeParams<T> {
  /** The channel on which the server announces a direct grant to this waiter. */
  readonly channel: string;
  /**
   * Opens a stream on `channel` over the backend's push (`new PushStream(subscribe, channel)`):
   * given by whoever offers push, so that the wait loop itself holds no push code (push-kit.ts).
   */
  open(): GrantStream;
  /** What a message means; absent: attempt at once (one request claims the grant). */
  readonly onMessage?: (payload: string, since: WakeContext) => WakeAction<T>;
  /**
   * The waiter never queues (a reader): it listens from its first busy answer, and a message only
   * wakes it early — it keeps polling as it would without push, since no grant awaits it.
   */
  readonly unqueued?: boolean;
  /** The client's shared stream on the name, where streams are shared (see wait-loop.ts). */
  readonly shared?: GrantStreamState | undefined;
  /**
   * One release may grant several waiters at once (a semaphore's permits): any queued waiter, not
   * only the head, may be granted before its new stream is live, so each asks again once it is.
   */
  readonly grantsSeveral?: boolean;
}

export interface Turn<T> {
  readonly params: WaitLoopParams<T>;
  readonly start: number;
  readonly attempt: number;
  readonly busy: ServerHint;
  readonly sentAt: number;
  readonly replyAt: number;
  readonly rttMs: number;
  readonly rttDevMs: number;
  readonly stream: GrantStream | undefined;
  /**
   * The stream was opened for this waiter (the head, or any queued waiter where a release grants
   * several) after its attempt was sent: a grant made before it went live was not heard, so the
   * waiter attempts once as soon as it is live.
   */
  readonly attemptWhenLive: boolean;
}

/**
 * Waits between two attempts: until the strategy's delay (measured from the reply), a grant
 * message, or the caller's abort. The plan is redrawn when the push stream goes live or breaks.
 * Resolves `{ granted }` when a message completed the acquisition, `undefined` to attempt again.
 */
export async function waitTurn<T>(turn: Turn<T>): Promise<{ readonly granted: T } | undefined> {
  const { params, stream } = turn;
  const what = `acquire "${params.name}"`;
  let attemptBy = Infinity;
  for (let first = true; ; first = false) {
    const delay = Math.max(0, Math.min(plannedDelay(turn), attemptBy - now()));
    if (first) {
      const { position, remainingLeaseMs } = turn.busy;
      params.ctx.emit({
        type: "waited",
        name: params.name,
        attempt: turn.attempt,
        sleepMs: delay,
        position,
        remainingLeaseMs,
      });
    }
    if (stream === undefined || stream.closed) {
      await sleep(delay, params.signal, what);
      return undefined;
    }
    const event = await stream.next(delay, params.signal, what);
    if (event.type === "timeout") return undefined;
    if (event.type === "live" && turn.attemptWhenLive) return undefined;
    if (event.type !== "message") continue;
    const action =
      params.wake?.onMessage?.(event.payload, {
        sentAt: turn.sentAt,
        hint: turn.busy,
        rttMs: turn.rttMs,
      }) ?? "attempt";
    if (action === "attempt") return undefined;
    if (action === "stale") continue;
    if ("attemptInMs" in action) attemptBy = Math.min(attemptBy, now() + action.attemptInMs);
    else return action;
  }
}

/**
 * The strategy's delay from the reply, capped by the holder's remaining lease, the budget and,
 * for a queued waiter (a direct grant may be reserved for it), the claim window — whatever the
 * strategy (a user's fixed 1 s strategy with a 300 ms claim window let a semaphore's head sleep
 * past its grant and re-queue behind a later waiter).
 */
function plannedDelay<T>(turn: Turn<T>): number {
  const { params, busy } = turn;
  const left = params.waitMs - (turn.replyAt - turn.start);
  const hint: WaitHint = {
    ...busy,
    attempt: turn.attempt,
    budgetMs: left,
    rttMs: turn.rttMs,
    rttDevMs: turn.rttDevMs,
    // A stream still connecting counts as push: if it fails, the plan is redrawn at once. Only a
    // queued waiter is sent a grant: one without a place (a multi-lock busy at a later name) polls.
    pushed:
      turn.stream !== undefined &&
      !turn.stream.closed &&
      params.wake?.unqueued !== true &&
      busy.position > 0,
    ...(params.claimWindowMs === undefined ? {} : { claimWindowMs: params.claimWindowMs }),
  };
  const wanted = params.ctx.wait.nextDelay(hint);
  // The server measured the remaining lease somewhere between send and reply: counted from the
  // send, the cap holds however slow the reply's way back was (a loaded server or event loop
  // made waiters sleep hundreds of ms past the expiry when it was counted from the reply).
  const lease =
    busy.remainingLeaseMs > 0 ? busy.remainingLeaseMs - (turn.replyAt - turn.sentAt) : left;
  const claim = busy.position > 0 ? claimCap(hint) : Infinity;
  const cap = Math.min(left, lease, claim);
  return Math.max(0, Math.min(wanted, cap) - (now() - turn.replyAt));
}
