import { isClusterRefusal, ReplyError, TransportError } from "../backend/backend.ts";
import type { ClientContext } from "../client-context.ts";
import { AbortedError, BackendError } from "../errors.ts";
import { opRecordKey } from "../keys.ts";
import { quarantineKeyFor } from "../quarantine/quarantine.ts";
import { testSeams } from "../test-seams.ts";
import { now } from "./clock.ts";
import { backoff, evalScript, once } from "./eval-script.ts";
import { giveUp } from "./give-up.ts";
import {
  ordered,
  type ArgsOf,
  type KeysOf,
  type ManifestScript,
  type ReplyOf,
} from "./manifest.ts";
import { LATE, TOMBSTONED, type Operation } from "./operation.ts";
import { named, splitProtocolReply, splitReply } from "./reply.ts";
import { clockFor, type AnsweredBy } from "./server-clocks.ts";
import { sleep } from "./sleep.ts";

/** What the engine needs of a client. */
export type EngineContext = Pick<
  ClientContext,
  | "backend"
  | "policy"
  | "emit"
  | "clocks"
  | "recordMarginMs"
  | "quarantine"
  | "prefix"
  | "grantEpochs"
>;

/** A protocol script's call must name its operation; any other's must not. */
export type RunCall<S extends ManifestScript> = RunCallBase<S> &
  (S["protocol"] extends true ? { readonly op: Operation } : { readonly op?: undefined });

interface RunCallBase<S extends ManifestScript> {
  /** Names the call in errors and events, e.g. `acquire "orders:42"`. */
  readonly what: string;
  readonly keys: KeysOf<S>;
  readonly args: ArgsOf<S>;
  /**
   * How long after sending a copy may still apply (the caller's budget: a wait's time left, a
   * renewal's local deadline); at most, and by default, the retry window.
   */
  readonly budgetMs?: number;
  readonly signal?: AbortSignal | undefined;
  /**
   * The script changes nothing (a read): when no answer comes, a `BackendError`, never an
   * `OutcomeUnknownError` (there is no outcome to know). Only for scripts outside the protocol.
   */
  readonly readOnly?: boolean;
}

export interface RunResult<S extends ManifestScript> {
  readonly reply: ReplyOf<S>;
  /** When the first copy was sent (monotonic ms): the earliest the script can have run. */
  readonly sentAt: number;
  readonly serverMs: number;
  readonly requests: number;
}

/**
 * The one entry for every call of a script with a manifest. Keys and args go by name (the
 * manifest orders them); the reply comes back by name, its server time fed to the client's
 * clock estimate. A `protocol` script runs as one operation: the engine appends the record
 * and quarantine keys, the deadline and its settings; resends carry the same id and deadline;
 * a LATE answer with budget left is resent with a corrected deadline; when resending can no
 * longer help, the outcome is settled (see `giveUp`). See docs/protocol.md.
 */
export async function run<S extends ManifestScript>(
  ctx: EngineContext,
  script: S,
  call: RunCall<S>,
): Promise<RunResult<S>> {
  const keys = ordered(script.keys, call.keys) as string[];
  const args = ordered(script.args, call.args);
  if (!script.protocol) return plain(ctx, script, call, keys, args);
  if (call.op === undefined)
    throw new TypeError(`${call.what}: a protocol call needs an operation`);
  return operation(ctx, script, call, call.op, keys, args);
}

async function plain<S extends ManifestScript>(
  ctx: EngineContext,
  script: S,
  call: RunCall<S>,
  keys: string[],
  args: (string | number)[],
): Promise<RunResult<S>> {
  // Reads, settle and abandon change nothing when repeated: resent within the retry window.
  const evalCall = {
    operation: call.what,
    keys,
    args,
    retrySafe: true,
    readOnly: call.readOnly === true,
    signal: call.signal,
    // A read inside a wait (a latch's poll) ends with the caller's budget.
    deadline: call.budgetMs === undefined ? undefined : now() + call.budgetMs,
  };
  const { reply, at, sentAt, requests } = await evalScript(
    ctx.backend,
    script,
    evalCall,
    ctx.policy,
    ctx.emit,
  );
  const { tuple, serverMs } = splitReply(call.what, reply);
  ctx.clocks.observe(at, serverMs, sentAt, now());
  return { reply: named(script, call.what, tuple), sentAt, serverMs, requests };
}

async function operation<S extends ManifestScript>(
  ctx: EngineContext,
  script: S,
  call: RunCall<S>,
  op: Operation,
  keys: string[],
  args: (string | number)[],
): Promise<RunResult<S>> {
  const { policy } = ctx;
  // The clock of the server (on a cluster, the node) that judges this call's deadline: one
  // estimate per clock, never another node's (docs/protocol.md, "Deadlines and clocks").
  const clock = clockFor(ctx, keys[0]!);
  const budgetMs = Math.max(
    1,
    Math.min(call.budgetMs ?? policy.retryWindowMs, policy.retryWindowMs),
  );
  const firstSent = now();
  const budgetEnd = firstSent + budgetMs;
  // The latest server time a copy may apply: the budget from the latest the server clock can
  // read now, so that no copy is refused while the caller still waits for it; but never past
  // the anchor plus the margin, while the record of a copy that may have applied surely lives.
  const wanted = Math.ceil(clock.upper(firstSent) + budgetMs);
  // This call sets the anchor: no copy of the operation was ever sent before it.
  const anchoredHere = op.anchor === undefined;
  op.anchor ??= wanted;
  op.deadline = Math.max(op.deadline ?? 0, Math.min(wanted, op.anchor + ctx.recordMarginMs));
  const engineKeys = [opRecordKey(keys[0]!, op.id), quarantineKeyFor(ctx, keys[0]!)];
  const q = ctx.quarantine;
  let requests = 0;
  let ambiguous: Error | undefined;
  // A repeat of an operation whose earlier call ended in doubt is in doubt from the start: it
  // ends in its recorded answer, a settle, or OutcomeUnknownError, never a BackendError that
  // would claim it did not apply.
  const earlier = (): Error | undefined =>
    op.inDoubt
      ? new Error(`an earlier call of ${call.what} ended with its outcome unknown`)
      : undefined;
  const doubt = () => ambiguous ?? earlier();
  const what = call.what;
  // `attempts`: the copies this call sent (its attempts so far).
  const settle = (attempts: number) =>
    giveUp(ctx, script, {
      what,
      op,
      recordKey: engineKeys[0]!,
      cause: doubt(),
      firstSent,
      attempts,
      clock,
      signal: call.signal,
    });
  for (let attempt = 1; ; attempt++) {
    if (call.signal?.aborted) throw new AbortedError(what, call.signal.reason);
    const sentAt = now();
    const seen = q.ms > 0 && !testSeams.ignoreRollback ? ctx.grantEpochs.seen(engineKeys[1]!) : 0;
    const tail = [op.deadline, ctx.recordMarginMs, q.ms, q.sentinelTtlMs, seen];
    const evalCall = { operation: what, keys: [...keys, ...engineKeys], args: [...args, ...tail] };
    let raw: unknown;
    let answeredBy: AnsweredBy;
    try {
      // No request outlasts the caller's budget (tryAcquire: one request timeout in all).
      const timeoutMs = Math.max(
        1,
        Math.min(policy.requestTimeoutMs, Math.ceil(budgetEnd - now())),
      );
      ({ reply: raw, at: answeredBy } = await once(
        ctx.backend,
        script,
        { ...evalCall, retrySafe: true, signal: call.signal },
        timeoutMs,
        () => requests++,
      ));
    } catch (error) {
      const retry = resendable(error, doubt() !== undefined);
      if (retry === "settle") {
        if (call.signal?.aborted) throw new AbortedError(what, call.signal.reason);
        ambiguous = error as Error;
      } else if (retry === "throw") throw classify(what, error);
      const delay = backoff(attempt);
      const at = now() + delay;
      if (at >= budgetEnd || clock.upper(at) >= op.deadline) {
        if (doubt() === undefined) throw classify(what, error);
        return settle(attempt);
      }
      ctx.emit({ type: "retried", operation: what, attempt, error: error as Error });
      await sleep(delay, call.signal, what);
      continue;
    }
    const { tuple, serverMs, epochLeft, epochFoundLower } = splitProtocolReply(what, raw);
    // A reply from the node the deadline was judged by corrects that estimate; one that was
    // redirected (a slot moved) corrects nothing, and its LATE refusal is then final.
    ctx.clocks.observe(answeredBy, serverMs, sentAt, now());
    ctx.grantEpochs.observe(engineKeys[1]!, epochLeft, epochFoundLower, what, ctx.emit);
    if (tuple[0] === LATE) {
      // Refused unapplied: the client's clock was off by more than it assumed. No record while
      // the anchor's record would still live: no copy has applied, and every copy sent so far is
      // refused from now on, so the operation starts afresh (a new anchor). With budget left,
      // the same operation goes again with a deadline from the server time just learned.
      // So is the refusal of the only copy ever sent (a client whose clock is off by more than
      // the margin learns the server's time from it and goes again).
      const fresh = serverMs <= op.anchor + ctx.recordMarginMs || (anchoredHere && requests === 1);
      if (fresh) op.inDoubt = false;
      const left = budgetEnd - now();
      // Judged by the node that refused it (the slot may have moved since the first send).
      const judge = answeredBy === null ? clock : ctx.clocks.of(answeredBy);
      const corrected = Math.ceil(judge.upper() + left);
      if (fresh && left > 0 && corrected > op.deadline) {
        op.anchor = corrected;
        op.deadline = corrected;
        continue;
      }
      if (doubt() === undefined)
        throw new BackendError(`${what} was refused: its deadline passed before it ran`);
      return settle(attempt);
    }
    if (tuple[0] === TOMBSTONED)
      throw new BackendError(`${what} did not apply: the operation was settled before it ran`);
    return { reply: named(script, what, tuple), sentAt: firstSent, serverMs, requests };
  }
}

/**
 * What to do after a failed send: "resend" (it surely did not run: a cluster refusal),
 * "settle" (it may have run: resend while the deadline allows, then settle), "throw" (it did
 * not run and will not: a reply error, a refused request, or a request that provably never
 * reached the server — connection refused, DNS, TLS, an invalid URL (`ambiguous: false`) — so
 * the caller gets a `BackendError` at once; unless an earlier copy may have run, which leaves the
 * doubt to resend and settle).
 */
function resendable(error: unknown, anyAmbiguous: boolean): "resend" | "settle" | "throw" {
  if (isClusterRefusal(error)) return "resend";
  if (error instanceof TransportError && error.ambiguous) return "settle";
  if (anyAmbiguous && (error instanceof TransportError || error instanceof ReplyError))
    return "resend";
  return "throw";
}

function classify(what: string, error: unknown): unknown {
  if (error instanceof ReplyError)
    return new BackendError(`${what}: ${error.message}`, { cause: error });
  if (error instanceof TransportError)
    return new BackendError(
      `${what}: ${error.message}`,
      error.status === undefined ? { cause: error } : { cause: error, status: error.status },
    );
  return error;
}
