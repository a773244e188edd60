/** Every class the adversarial oracle reports, each a broken promise a client could act on. */
export type AdversaryViolationClass =
  /** A grant applied for a call whose caller was told "not acquired" (and it harmed someone). */
  | "phantom-grant"
  /**
   * A copy of a call that ended in an error (unknown outcome, settled, refused) applied after its
   * caller had that answer: the answer was not final (its cleanup, abandon or settle, excepted).
   */
  | "applied-after-answer"
  /** A grant applied for a call that ended in an error, never undone by its own cleanup. */
  | "orphan-hold"
  /** One call's grant applied more than once (a re-entry or permits taken twice). */
  | "double-grant"
  /** A caller was told it acquired, but no grant of its applied at the server. */
  | "told-not-applied"
  /** A release applied more (or less) than its caller was told. */
  | "release-mismatch"
  /** The owner released every hold it was told of, and the server still holds it for that owner. */
  | "leaked-hold"
  /** A client's local deadline lies after the server's expiry of its hold (or the server has no such hold). */
  | "dishonest-lease"
  /** The same, because a copy of a renewal ran after its caller had its answer (finding 2). */
  | "stale-renewal"
  /** The same, because another object renewing the same lease (a handed-over hold's keeper) set it. */
  | "renewal-race"
  /** The same for a hold resumed from `toJSON()`, trusted before any renewal confirmed it. */
  | "dishonest-resume"
  /** The same, set by the holder's own renewal still unanswered (in flight, or its response lost). */
  | "unresolved-renewal"
  /** Two clients believe they hold one lock at once. */
  | "overlap"
  /** More permits believed held than the semaphore has. */
  | "over-capacity"
  /** available + reserved above the total. */
  | "permits-created"
  /** At quiescence: permits missing, or a lock held that every client released. */
  | "final-state"
  /** A kept-alive hold lost in a run without any fault. */
  | "lost-without-fault"
  /** A `countDown` call applied other than exactly once (ok: once; failed: never; unknown: at most once). */
  | "count-mismatch"
  /** A latch counted down by a call of another round, or told open before its round's count reached zero. */
  | "latch-early"
  /** A `trySetCount` applied other than its caller was told. */
  | "latch-set-mismatch"
  /**
   * FIFO: a queued waiter lost its place (its direct grant lapsed unclaimed, or it was dropped
   * from the queue) while its call was still waiting, though its client did not act late.
   */
  | "lost-place"
  /** Two resources the clients told apart (e.g. names differing in a lone surrogate) reached Redis as one key. */
  | "key-shared"
  /** A call on an ill-formed (lone-surrogate) name or owner was not refused with `InvalidArgumentError`. */
  | "ill-formed-accepted"
  /** A grant on a data set that went back (its epoch no higher than its client had seen), not refused. */
  | "rollback-undetected";

export interface AdversaryViolation {
  readonly class: AdversaryViolationClass;
  readonly resource: string;
  readonly intent?: number;
  readonly holdId?: number;
  /** An overlap's other (older) hold. */
  readonly olderHoldId?: number;
  readonly seq?: number;
  readonly detail: string;
}

/** Either outcome is accepted within this many ms of a lease boundary (clock reading granularity). */
export const BOUNDARY_TOLERANCE_MS = 2;
