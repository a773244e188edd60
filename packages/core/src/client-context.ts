import type { Backend } from "./backend/backend.ts";
import type { EvalPolicy } from "./engine/eval-script.ts";
import { resolveBackendWith } from "./backend/resolve.ts";
import type { PushKit } from "./push-kit.ts";
import { ServerClocks } from "./engine/server-clocks.ts";
import {
  DEFAULT_CLIENT_OPTIONS,
  RECORD_MARGIN_SLACK_MS,
  type ClientOptions,
} from "./client-options.ts";
import { asError, InvalidArgumentError } from "./errors.ts";
import { safeSink, type EventSink } from "./events.ts";
import { timerKeeper, type Keeper } from "./lease/keeper.ts";
import { GrantEpochs } from "./quarantine/grant-epochs.ts";
import { resolveQuarantine, type QuarantineConfig } from "./quarantine/quarantine.ts";
import { randomId, sharedOwner, type HandleOwner } from "./ids.ts";
import { testSeams } from "./test-seams.ts";
import { validateMs, validateName, validateObject } from "./validate.ts";
import { justInTimeStrategy } from "./wait/just-in-time.ts";
import type { WaitStrategy } from "./wait/strategy.ts";

/** Everything a primitive needs from its client, resolved and validated once. */
export interface ClientContext {
  readonly backend: Backend;
  readonly prefix: string;
  readonly leaseMs: number;
  readonly policy: EvalPolicy;
  readonly claimWindowMs: number;
  /** Fixed record lifetime of the primitives not yet on the operation protocol (semaphores, …). */
  readonly operationRecordTtlMs: number;
  /** Protocol records live until their deadline plus this (operationRecordTtlMs - retryWindowMs). */
  readonly recordMarginMs: number;
  readonly clockErrorMs: number;
  readonly wallClock: () => number;
  /** This client's server-time estimates: one per clock (one server, or each cluster node). */
  readonly clocks: ServerClocks;
  readonly fenceTtlMs: number;
  readonly statsTtlMs: number;
  readonly quarantine: QuarantineConfig;
  /** The grant epochs this client has seen, and its live holds, for rollback detection. */
  readonly grantEpochs: GrantEpochs;
  readonly keeper: Keeper;
  readonly wait: WaitStrategy;
  readonly emit: EventSink;
  /** Push, where the client was made with it (every entry but `@edgelock/core/lock-polling`). */
  readonly push: PushKit | undefined;
  /**
   * Tracks background work (abandoned acquires, dispose releases) for `client.settled()`; a
   * failure is told (`background-failed`).
   */
  background(work: Promise<unknown>): void;
}

/**
 * What every client factory shares: the options resolved into a `ClientContext`, and the set of
 * background work behind `settled()`. Apart from the factories, so a Lock-only client
 * (`@edgelock/core/lock`) does not pull in every primitive.
 */
const pending = new WeakMap<ClientContext, Set<Promise<unknown>>>();

/** Resolves when the context's background work has settled (`client.settled()`). */
export async function pendingOf(context: ClientContext): Promise<void> {
  const set = pending.get(context);
  while (set && set.size > 0) await Promise.allSettled([...set]);
}

/**
 * Validates `createClient` options once, before any request, and resolves their defaults. `push`:
 * the client's push (`PUSH`), or `undefined` for a client that only polls.
 */
export function resolveContext(options: ClientOptions, push: PushKit | undefined): ClientContext {
  const o = validateObject("options", options) as unknown as ClientOptions;
  if (o.redis === undefined) throw new InvalidArgumentError("options.redis", "is required");
  const d = DEFAULT_CLIENT_OPTIONS;
  const prefix = o.prefix === undefined ? d.prefix : validateName("options.prefix", o.prefix);
  if (/[{}]/.test(prefix))
    throw new InvalidArgumentError(
      "options.prefix",
      "must not contain { or } (they would change the hash tag)",
    );
  if (o.onEvent !== undefined && typeof o.onEvent !== "function")
    throw new InvalidArgumentError("options.onEvent", "must be a function");
  const requestTimeoutMs = validateMs(
    "options.requestTimeoutMs",
    o.requestTimeoutMs ?? d.requestTimeoutMs,
    { min: 1 },
  );
  const retryWindowMs = validateMs("options.retryWindowMs", o.retryWindowMs ?? d.retryWindowMs);
  const clockErrorMs = validateMs("options.clockErrorMs", o.clockErrorMs ?? d.clockErrorMs);
  if (o.wallClock !== undefined && typeof o.wallClock !== "function")
    throw new InvalidArgumentError("options.wallClock", "must be a function returning epoch ms");
  const wallClock = o.wallClock ?? Date.now;
  const operationRecordTtlMs = resolveRecordTtl(o.operationRecordTtlMs, {
    retryWindowMs,
    requestTimeoutMs,
    clockErrorMs,
  });
  const set = new Set<Promise<unknown>>();
  const emit = safeSink(o.onEvent);
  const leaseMs = validateMs("options.leaseMs", o.leaseMs ?? d.leaseMs, { min: 3 });
  const claimWindowMs = validateMs("options.claimWindowMs", o.claimWindowMs ?? d.claimWindowMs, {
    min: 1,
  });
  const wait = o.wait === undefined ? justInTimeStrategy() : validateWait(o.wait);
  const refusedMs = refusedBackoffMs(o.push);
  const backend = resolveBackendWith(o.redis, push?.restStreams);
  const context: ClientContext = {
    backend: push ? push.rememberRefusal(backend, refusedMs) : backend,
    prefix,
    leaseMs,
    policy: { requestTimeoutMs, retryWindowMs },
    claimWindowMs,
    operationRecordTtlMs,
    recordMarginMs: operationRecordTtlMs - retryWindowMs,
    clockErrorMs,
    wallClock,
    clocks: new ServerClocks(wallClock, clockErrorMs),
    fenceTtlMs: validateMs("options.fenceTtlMs", o.fenceTtlMs ?? d.fenceTtlMs, { min: 1 }),
    statsTtlMs: validateMs("options.statsTtlMs", o.statsTtlMs ?? d.statsTtlMs, { min: 1 }),
    quarantine: resolveQuarantine(o, {
      leaseMs,
      claimWindowMs,
      returnWithinMs: wait.maxDelayMs + requestTimeoutMs,
    }),
    grantEpochs: new GrantEpochs(),
    keeper: o.keeper === undefined ? timerKeeper() : validateKeeper(o.keeper),
    wait,
    emit,
    push,
    background(work) {
      const tracked = work
        .catch((error: unknown) =>
          emit({
            type: "background-failed",
            error: asError(error),
          }),
        )
        .finally(() => set.delete(tracked));
      set.add(tracked);
    },
  };
  pending.set(context, set);
  return context;
}

/**
 * A copy sent at the end of the retry window may run a request timeout later, and a settle sent
 * once the deadline passed (by the client's clock, within its error bound) must still find the
 * record: the record must outlive all of that (finding 6 of issue 13).
 */
function resolveRecordTtl(
  value: unknown,
  p: { retryWindowMs: number; requestTimeoutMs: number; clockErrorMs: number },
): number {
  // The margin past the deadline must cover what follows a give-up: with no server time yet the
  // client waits until its wall clock, which may be clockErrorMs slow, is past a deadline set
  // clockErrorMs fast, and only then may repeat the call or abandon it, one request later.
  const min = p.retryWindowMs + p.requestTimeoutMs + 2 * p.clockErrorMs + RECORD_MARGIN_SLACK_MS;
  if (value === undefined) return min + p.requestTimeoutMs;
  const ttl = validateMs("options.operationRecordTtlMs", value);
  if (ttl < min && !testSeams.acceptShortRecordTtl)
    throw new InvalidArgumentError(
      "options.operationRecordTtlMs",
      `must be at least retryWindowMs + requestTimeoutMs + 2 × clockErrorMs + ${RECORD_MARGIN_SLACK_MS} (${min} ms), so that a retry, the settle after it and a repeat after an unknown outcome find the record, got ${ttl} ms`,
    );
  return ttl;
}

/** `options.push.refusedBackoffMs`, validated, or its default. */
function refusedBackoffMs(push: unknown): number {
  const d = DEFAULT_CLIENT_OPTIONS.push.refusedBackoffMs;
  if (push === undefined) return d;
  const p = validateObject("options.push", push) as { refusedBackoffMs?: unknown };
  return validateMs("options.push.refusedBackoffMs", p.refusedBackoffMs ?? d);
}

/** `options.keeper`: an object with `keep(task)`, such as `timerKeeper()` or an adapter's keeper. */
function validateKeeper(keeper: unknown): Keeper {
  if (typeof (keeper as Keeper | null)?.keep !== "function")
    throw new InvalidArgumentError(
      "options.keeper",
      "must be a Keeper, an object with keep(task): timerKeeper(), or waitUntilKeeper()/vercelKeeper() from the adapters",
    );
  return keeper as Keeper;
}

/** `options.wait`: an object with `nextDelay(hint)` and a finite `maxDelayMs` (ms). */
function validateWait(wait: unknown): WaitStrategy {
  const w = wait as Partial<WaitStrategy> | null;
  if (typeof w?.nextDelay !== "function")
    throw new InvalidArgumentError(
      "options.wait",
      "must be a WaitStrategy, an object with nextDelay(hint): justInTimeStrategy() or backoffStrategy()",
    );
  const max = w.maxDelayMs;
  if (typeof max !== "number" || !Number.isFinite(max) || max < 0)
    throw new InvalidArgumentError(
      "options.wait.maxDelayMs",
      `must be a finite number of milliseconds ≥ 0, got ${String(max)}`,
    );
  return wait as WaitStrategy;
}

/** The owner of a new handle: the caller's `{ owner }` (validated, shared), else a fresh random id. */
export function ownerOf(handleOptions: unknown): HandleOwner {
  const o = validateObject("options", handleOptions) as { owner?: unknown };
  return o.owner === undefined
    ? { id: randomId(), shared: false }
    : sharedOwner(validateName("options.owner", o.owner));
}
