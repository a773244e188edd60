import {
  isClusterRefusal,
  isNoScript,
  ReplyError,
  TransportError,
  type Backend,
} from "../backend/backend.ts";
import { AbortedError, BackendError, OutcomeUnknownError } from "../errors.ts";
import type { EventSink } from "../events.ts";
import { now } from "./clock.ts";
import type { Script } from "./script.ts";
import type { AnsweredBy } from "./server-clocks.ts";
import { linkedSignal, sleep } from "./sleep.ts";

export interface EvalPolicy {
  /** Per-request timeout. */
  readonly requestTimeoutMs: number;
  /** How long an ambiguous failure may be retried before the outcome is declared unknown. */
  readonly retryWindowMs: number;
}

export interface EvalCall {
  readonly operation: string;
  readonly keys: readonly string[];
  readonly args: readonly (string | number)[];
  /** True when re-running is harmless: read-only, idempotent, or guarded by an operation id. */
  readonly retrySafe: boolean;
  /**
   * The script changes nothing: a failure is a `BackendError` (no answer came), never an
   * `OutcomeUnknownError` (there is no outcome to know).
   */
  readonly readOnly?: boolean;
  /**
   * The caller's budget (monotonic ms): every request's timeout ends by then and no retry starts
   * after it (an acquire returns within `waitMs` plus one request timeout). Absent: the retry
   * window alone bounds the call.
   */
  readonly deadline?: number | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** How a primitive's script call runs: a read (never an unknown outcome), its cancel signal, its budget. */
export type RunOptions = Pick<EvalCall, "readOnly" | "signal" | "deadline">;

export interface EvalResult {
  readonly reply: unknown;
  /** Which server (cluster node) answered: whose clock the reply's server time belongs to. */
  readonly at: AnsweredBy;
  /** When the first attempt was sent (monotonic ms): the earliest the script can have run. */
  readonly sentAt: number;
  readonly requests: number;
}

/**
 * The one place that owns the wire rules: EVALSHA, then EVAL only when the error says NOSCRIPT
 * (never SCRIPT LOAD + retry: a replica may not have it yet); every request with a timeout;
 * ambiguous failures retried within one window only when the call is retry-safe, refusals of
 * Redis Cluster (TRYAGAIN, CLUSTERDOWN) within it always; and the caller's abort never mistaken
 * for a reply. A failure that provably never reached the server (a refused connection, a 4xx)
 * is a `BackendError` at once — unless an earlier attempt may have run, which leaves the outcome
 * unknown. Retries stop at the call's `deadline` as at the end of the window.
 */
export async function evalScript(
  backend: Backend,
  script: Script,
  call: EvalCall,
  policy: EvalPolicy,
  emit: EventSink,
): Promise<EvalResult> {
  const sentAt = now();
  const until = Math.min(sentAt + policy.retryWindowMs, call.deadline ?? Infinity);
  const timeoutMs = () =>
    Math.max(1, Math.min(policy.requestTimeoutMs, Math.ceil((call.deadline ?? Infinity) - now())));
  let requests = 0;
  let mayHaveRun = false;
  for (let attempt = 1; ; attempt++) {
    if (call.signal?.aborted) throw new AbortedError(call.operation, call.signal.reason);
    try {
      const { reply, at } = await once(backend, script, call, timeoutMs(), () => requests++);
      return { reply, at, sentAt, requests };
    } catch (error) {
      if (isClusterRefusal(error)) {
        // Refused before running (a slot migration in progress): any call may go again.
        const delay = backoff(attempt);
        if (now() + delay > until)
          throw new BackendError(`${call.operation}: ${(error as Error).message}`, {
            cause: error,
          });
        emit({ type: "retried", operation: call.operation, attempt, error: error as Error });
        await sleep(delay, call.signal, call.operation);
        continue;
      }
      if (error instanceof ReplyError)
        throw new BackendError(`${call.operation}: ${error.message}`, { cause: error });
      if (!(error instanceof TransportError)) throw error;
      if (call.signal?.aborted) throw new AbortedError(call.operation, call.signal.reason);
      if (!error.ambiguous && !mayHaveRun) {
        throw new BackendError(
          `${call.operation}: ${error.message}`,
          error.status === undefined ? { cause: error } : { cause: error, status: error.status },
        );
      }
      const delay = backoff(attempt);
      // Refused after an attempt that may have run: that one's outcome stays unknown.
      const again = error.ambiguous && call.retrySafe && now() + delay < until;
      mayHaveRun = true;
      if (!again) throw giveUp(call, attempt, error, emit);
      emit({ type: "retried", operation: call.operation, attempt, error });
      await sleep(delay, call.signal, call.operation);
    }
  }
}

/** The error of a call that got no answer it can trust: a read's is a plain backend failure. */
function giveUp(call: EvalCall, attempts: number, error: TransportError, emit: EventSink): Error {
  if (call.readOnly) {
    const noun = attempts === 1 ? "attempt" : "attempts";
    return new BackendError(
      `${call.operation}: no answer after ${attempts} ${noun}: ${error.message}`,
      {
        cause: error,
      },
    );
  }
  const unknown = new OutcomeUnknownError(call.operation, attempts, error);
  emit({ type: "outcome-unknown", operation: call.operation, error: unknown });
  return unknown;
}

/** One request (EVALSHA, then EVAL on NOSCRIPT), and which server answered it. */
export async function once(
  backend: Backend,
  script: Script,
  call: EvalCall,
  timeoutMs: number,
  count: () => void,
): Promise<{ reply: unknown; at: AnsweredBy }> {
  const request = linkedSignal(timeoutMs, call.signal);
  const tail = [call.keys.length, ...call.keys, ...call.args];
  const send = async (args: (string | number)[]) =>
    backend.commandAt
      ? backend.commandAt(args, request.signal)
      : { reply: await backend.command(args, request.signal), at: undefined };
  try {
    count();
    try {
      return await send(["EVALSHA", script.sha, ...tail]);
    } catch (error) {
      if (!isNoScript(error)) throw error;
      count();
      return await send(["EVAL", script.source, ...tail]);
    }
  } finally {
    request.dispose();
  }
}

/** Exponential with full jitter: 25, 50, 100 … 1000 ms caps. */
export function backoff(attempt: number): number {
  return Math.random() * Math.min(1_000, 25 * 2 ** attempt);
}
