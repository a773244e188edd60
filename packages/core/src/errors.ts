import type { ServerHint } from "./wait/wait-loop.ts";

/**
 * Every error edgelock throws is a `LockError` with a stable `code`, so callers can branch on
 * `err.code` without `instanceof` across bundles.
 */
export type LockErrorCode =
  | "INVALID_ARGUMENT"
  | "NOT_HELD"
  | "ACQUIRE_TIMEOUT"
  | "LEASE_LOST"
  | "ABORTED"
  | "OUTCOME_UNKNOWN"
  | "BACKEND"
  | "QUORUM"
  | "PERMITS_REFUSED"
  | "UPGRADE"
  | "KEEPER";

export class LockError extends Error {
  readonly code: LockErrorCode;
  constructor(code: LockErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** A public function was called with a bad argument; thrown before any request. */
export class InvalidArgumentError extends LockError {
  readonly argument: string;
  constructor(argument: string, message: string) {
    super("INVALID_ARGUMENT", `${argument}: ${message}`);
    this.argument = argument;
  }
}

/** release/extend by a caller that does not hold the lock (never held, released, or expired). */
export class NotHeldError extends LockError {
  readonly lockName: string;
  constructor(lockName: string, message = `"${lockName}" is not held by this owner`) {
    super("NOT_HELD", message);
    this.lockName = lockName;
  }
}

/** `acquire()` gave up after its `waitMs` budget. */
export class AcquireTimeoutError extends LockError {
  readonly lockName: string;
  readonly waitedMs: number;
  readonly attempts: number;
  /**
   * The last busy answer the wait saw (the holder's remaining lease, this waiter's place in the
   * queue, the server's hold statistics), or `undefined` when none came. Always an own property,
   * so `Object.hasOwn(error, "hint")` tells a core that reports it. Lets a caller say when to
   * come back (an HTTP `Retry-After`) without another request.
   * @example
   * catch (e) { if (e instanceof AcquireTimeoutError) retryInMs = e.hint?.remainingLeaseMs ?? 1_000; }
   */
  readonly hint: ServerHint | undefined;
  constructor(lockName: string, waitedMs: number, attempts: number, hint?: ServerHint) {
    super(
      "ACQUIRE_TIMEOUT",
      `"${lockName}" not acquired within ${waitedMs} ms (${attempts} attempts)`,
    );
    this.lockName = lockName;
    this.waitedMs = waitedMs;
    this.attempts = attempts;
    this.hint = hint;
  }
}

export type LeaseLossReason =
  | "gone"
  | "deadline"
  | "max-hold"
  | "release-failed"
  | "taken-over"
  | "keeper-failed"
  | "rolled-back";

/** The reason given to `held.signal` when a lease is lost. */
export class LeaseLostError extends LockError {
  readonly lockName: string;
  readonly reason: LeaseLossReason;
  constructor(lockName: string, reason: LeaseLossReason, options?: { cause?: unknown }) {
    super("LEASE_LOST", `lease on "${lockName}" lost: ${describeLoss(reason)}`, options);
    this.lockName = lockName;
    this.reason = reason;
  }
}

function describeLoss(reason: LeaseLossReason): string {
  switch (reason) {
    case "gone":
      return "the server no longer has this hold";
    case "deadline":
      return "no renewal confirmed the lease before its local deadline";
    case "max-hold":
      return "maxHoldMs reached, the keeper stopped renewing";
    case "release-failed":
      return "release did not reach the server; the lease will expire on its own";
    case "taken-over":
      return "the lease was handed to another keeper";
    case "keeper-failed":
      return "the keeper failed, nothing renews the lease";
    case "rolled-back":
      return "Redis went back to an older state (snapshot, restore or failover); the hold may be gone";
  }
}

/**
 * The client's keeper threw (or its returned promise rejected) when handed a new hold to keep
 * alive. The acquire fails with this error after giving the hold back (`released`: the release
 * reached the server, the lock is free; else it runs out with its lease). `cause`: the keeper's error.
 */
export class KeeperError extends LockError {
  readonly lockName: string;
  readonly released: boolean;
  constructor(lockName: string, cause: unknown, released: boolean) {
    const why = cause instanceof Error ? cause.message : String(cause);
    const after = released ? "the hold was released" : "the hold runs out with its lease";
    super("KEEPER", `the keeper failed to take "${lockName}" (${why}); ${after}`, { cause });
    this.lockName = lockName;
    this.released = released;
  }
}

/** A wait or request was cancelled by the caller's `signal`. `cause` is the signal's reason. */
export class AbortedError extends LockError {
  constructor(what: string, reason: unknown) {
    super("ABORTED", `${what} aborted`, { cause: reason });
  }
}

/** A mutation may or may not have been applied, and retrying within the window did not tell. */
export class OutcomeUnknownError extends LockError {
  readonly operation: string;
  readonly attempts: number;
  /**
   * The failure of the settle request that was to turn the doubt into an answer, when one was
   * sent and failed too (`cause` is what left the operation in doubt).
   */
  readonly settleError: unknown;
  constructor(operation: string, attempts: number, cause: unknown, settleError?: unknown) {
    super("OUTCOME_UNKNOWN", `outcome of ${operation} unknown after ${attempts} attempts`, {
      cause,
    });
    this.operation = operation;
    this.attempts = attempts;
    this.settleError = settleError;
  }
}

/** The backend refused or failed a request in a way that did not run it (auth, script error, 4xx). */
export class BackendError extends LockError {
  readonly status: number | undefined;
  constructor(message: string, options?: { cause?: unknown; status?: number }) {
    super("BACKEND", message, options);
    this.status = options?.status;
  }
}

export type PermitsRefusal = "over-release" | "negative-total";

/**
 * A semaphore refused a change of its permits: a release beyond the outstanding acquisitions
 * (it would raise the count above what was set plus what was added), or `addPermits` taking the
 * configured total below zero. Carries the server's counts at the time.
 */
export class PermitsRefusedError extends LockError {
  readonly semaphoreName: string;
  readonly reason: PermitsRefusal;
  readonly available: number;
  readonly total: number;
  constructor(
    semaphoreName: string,
    reason: PermitsRefusal,
    counts: { available: number; total: number },
  ) {
    const what =
      reason === "over-release"
        ? "release beyond the outstanding acquisitions"
        : "the total would fall below zero";
    super(
      "PERMITS_REFUSED",
      `"${semaphoreName}" refused: ${what} (available ${counts.available}, total ${counts.total})`,
    );
    this.semaphoreName = semaphoreName;
    this.reason = reason;
    this.available = counts.available;
    this.total = counts.total;
  }
}

/** What one database of a quorum lock answered in one round. */
export interface QuorumAnswer {
  /** Index of the database in the list given to `quorumLock`. */
  readonly database: number;
  /**
   * granted/renewed/released: yes; busy: held by another; quarantined: this database lost its
   * data and grants nothing until its restart quarantine ends; not-held: our hold is gone there;
   * error: no answer.
   */
  readonly status:
    | "granted"
    | "committed"
    | "renewed"
    | "released"
    | "busy"
    | "quarantined"
    | "not-held"
    | "error";
  /** The failure, when `status` is "error". */
  readonly error?: Error;
}

export type QuorumFailure = "unreachable" | "validity";

/**
 * A quorum lock could not get a majority of its databases to agree: too few answered
 * ("unreachable"), or the grant arrived with no validity left ("validity"). Carries every
 * database's answer in the failing round. A hold a majority no longer has is not this: its
 * `extend()` and `release()` throw `NotHeldError`, and its signal aborts with reason `gone`.
 */
export class QuorumError extends LockError {
  readonly lockName: string;
  readonly operation: "acquire" | "extend" | "release";
  readonly reason: QuorumFailure;
  readonly needed: number;
  readonly answers: readonly QuorumAnswer[];
  constructor(
    lockName: string,
    operation: QuorumError["operation"],
    reason: QuorumFailure,
    needed: number,
    answers: readonly QuorumAnswer[],
  ) {
    const tally = answers.map((a) => `${a.database}:${a.status}`).join(" ");
    super(
      "QUORUM",
      `${operation} of quorum lock "${lockName}" failed (${reason}): needed ${needed} of ${answers.length} [${tally}]`,
    );
    this.lockName = lockName;
    this.operation = operation;
    this.reason = reason;
    this.needed = needed;
    this.answers = answers;
  }
}

/**
 * A read-write lock's reader asked for the write lock. Waiting would wait for itself (Redisson's
 * RReadWriteLock deadlocks here), so it is refused at once: release the read lock first.
 */
export class UpgradeError extends LockError {
  readonly lockName: string;
  constructor(lockName: string) {
    super(
      "UPGRADE",
      `"${lockName}": this owner holds the read lock and cannot take the write lock (no upgrade); release the read lock first`,
    );
    this.lockName = lockName;
  }
}

/** What was thrown, as an `Error` (events carry one; a rejection may be anything). */
export function asError(thrown: unknown): Error {
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}
