/**
 * What an adversarial run records, all of it plain JSON so a failing run can be re-checked
 * offline (`recheck <file>`). Times are real wall-clock ms (`realNow()`), the clock the local
 * redis-server also reads, so server and client times are comparable; in a world that steps the
 * server's clock (`clock-step` data faults) server ms are the stepped clock's, and the oracle
 * takes each step's offset out first (`oracle/server-clock.ts`).
 */
import type { PrimitiveKind } from "../primitive-kind.ts";

/** A lock's hash (the Lock's layout, also the FairLock's and a ReadWriteLock's writer). */
export interface LockState {
  readonly kind: "lock";
  readonly owner: string | null;
  readonly fence: number;
  readonly count: number;
  /** True while a direct grant is reserved for a waiter that has not claimed it. */
  readonly reserved: boolean;
  /** Server ms at which the lease ends (null: free). */
  readonly expiresAt: number | null;
}

/** The state of one resource, read right after a script ran (requests are serialized). */
export type ResourceState =
  | LockState
  | {
      readonly kind: "semaphore";
      readonly available: number;
      readonly total: number;
      /** Permits handed to waiters that have not claimed them yet. */
      readonly reserved: number;
      /** Each unclaimed direct grant: waiter id → claim deadline (server ms). Absent in older histories. */
      readonly grants?: Readonly<Record<string, number>>;
      /** The waiter queue, head first. Absent in older histories. */
      readonly queue?: readonly QueuedWaiter[];
    }
  | {
      /** A read-write lock: the writer's hash (the Lock's layout) and every live reader. */
      readonly kind: "read-write-lock";
      readonly writer: LockState;
      /** Reader owner → its read session (count, fence, server ms at which its lease ends). */
      readonly readers: Readonly<Record<string, ReaderState>>;
    }
  | {
      /** A permit-expirable semaphore: its total and each live permit's lease end (server ms). */
      readonly kind: "permit-expirable-semaphore";
      readonly total: number;
      readonly permits: Readonly<Record<string, number>>;
      /** The waiter queue, head first (a direct grant is a permit under the waiter's id). */
      readonly queue?: readonly QueuedWaiter[];
    }
  | {
      /** A count-down latch: its count (0: open, the key gone). */
      readonly kind: "count-down-latch";
      readonly count: number;
    };

/** One waiter in a semaphore's FIFO queue. */
export interface QueuedWaiter {
  /** The waiter id (one per acquire call: the scripts' first argument, `Execution.subject`). */
  readonly waiter: string;
  /** The poll deadline it declared (server ms): past it, the server may drop it. */
  readonly pollBy: number;
}

export interface ReaderState {
  readonly count: number;
  readonly fence: number;
  readonly expiresAt: number;
}

/** One script run at the server, in execution order. */
export interface Execution {
  readonly seq: number;
  /** The public call (intent) whose request this was; background work inherits it. */
  readonly intent: number | null;
  readonly script: string;
  readonly command: "EVALSHA" | "EVAL";
  /**
   * The resource (its main key) and the call's operation id, when it carries one. A script that
   * touches several resources (a multi-lock's locks) logs one execution per resource, in a row.
   */
  readonly resource: string;
  readonly opId: string | null;
  /** How the scheduler delivered this copy. */
  readonly copy: "normal" | "late" | "duplicate" | "lost-response";
  /** Whether the client could still get this copy's reply (false: it had given up on the request, or the copy is a duplicate or its response is lost). */
  readonly seen: boolean;
  /**
   * Real ms when the copy was handed to the world (the client sent it; a late copy: when its
   * delay ended); it waits there behind every copy queued before it (script runs are serialized
   * to log each state), so on a loaded machine it may be sent to the server much later.
   * Absent in histories recorded before it was logged.
   */
  readonly queuedAt?: number;
  /**
   * Real ms when the client made the request this copy belongs to (before any hold-back or
   * queueing in the world): what the client did, apart from what the world did to it.
   */
  readonly requestedAt?: number;
  /** Real ms when the copy was sent to the server, and when its reply came back. */
  readonly sentAt: number;
  readonly doneAt: number;
  /** Server ms read right after the run, with the state. */
  readonly serverMs: number;
  readonly reply: unknown;
  readonly error: string | null;
  readonly state: ResourceState;
  /** A fault the rest-server injected into this copy (its caller saw an error, not the reply). */
  readonly serverFault?: string;
  /** The script's first own argument (the owner, a permit or waiter id), to attribute grants by id. */
  readonly subject?: string;
  /** The deadline this copy carried (server ms), when the call has an operation id. */
  readonly deadline?: number;
  /**
   * What the oracle took out of this run's server times (`oracle/server-clock.ts`) to put them on
   * the real clock; its reply's server times keep the server's clock. Absent: nothing (not logged).
   */
  readonly clockOffsetMs?: number;
  /**
   * The client that sent the copy (its number in the run): what its replies showed it is what
   * that client can remember (a long-lived client across calls; one made per call, nothing).
   */
  readonly client?: number;
}

/**
 * A fault of the world on the data itself, in execution order: a snapshot taken, a rollback to
 * it (every write since is gone), memory pressure (keys evicted). `seq` is the first of the runs
 * `world/<kind>` that log each resource's state right after it (a snapshot logs none).
 */
export interface DataFault {
  readonly kind: "snapshot" | "rollback" | "eviction" | "clock-step";
  readonly seq: number;
  /** Real ms when it was done (the server answers again, the pressure stopped, the clock moved). */
  readonly at: number;
  /** Keys evicted (eviction) . */
  readonly evicted?: number;
  /** How far the server's wall clock moved (clock-step; negative: back), ms. */
  readonly stepMs?: number;
  /** The server clock's offset from the real time after the step (clock-step), ms. */
  readonly offsetMs?: number;
}

/**
 * The primitives the adversary drives (a section count per primitive goes in the report), by the
 * core's kind names (see primitive-kind.ts).
 */
export type Primitive = Exclude<PrimitiveKind, "quorum-lock">;

export type IntentKind =
  | "tryAcquire"
  | "acquire"
  | "reenter"
  | "extend"
  | "release"
  | "resume-extend"
  | "resume-release"
  | "sem-acquire"
  | "sem-release"
  | "permit-acquire"
  | "permit-extend"
  | "permit-release"
  | "permit-resume-extend"
  | "add-permits"
  | "latch-set"
  | "latch-count-down"
  | "latch-await";

/** One public call and what its caller was told. */
export interface Intent {
  readonly id: number;
  readonly actor: string;
  readonly kind: IntentKind;
  /** Absent: "lock" or "semaphore" by kind (histories recorded before other primitives). */
  readonly primitive?: Primitive;
  readonly resource: string;
  /** Every resource the call acts on when more than one (a multi-lock's locks). */
  readonly resources?: readonly string[];
  /** A latch round this call belongs to. */
  readonly round?: number;
  /** An acquire's `waitMs` (absent: a single attempt, as `tryAcquire()`): its budget. */
  readonly waitMs?: number;
  /**
   * When the intent calls the API more than once (a release repeated after `OutcomeUnknownError`,
   * as its docs prescribe: one intent), each call's start; absent: one call, at `startedAt`.
   */
  callStarts?: number[];
  readonly owner: string;
  readonly startedAt: number;
  endedAt: number | null;
  /** "ok" (acquired / done), "none" (told not acquired), or the error code it threw. */
  outcome: string | null;
  fence: number | null;
  permits: number;
  /** The hold this call was about (extend, release), or the one it produced (acquire). */
  holdId: number | null;
}

/** A hold some client believes in, from the moment it was told until it released or was told of a loss. */
export interface Belief {
  readonly holdId: number;
  readonly resource: string;
  readonly owner: string;
  readonly fence: number;
  readonly toldAt: number;
  releasedAt: number | null;
  abortedAt: number | null;
  abortReason: string | null;
  /** Kept alive by the keeper (no fixed lease). */
  readonly keepAlive: boolean;
  /** Resumed from `toJSON()` in another client. */
  readonly resumed: boolean;
  /**
   * A read-write lock's side (absent: an exclusive hold): readers share, a writer excludes all.
   * "permit": a PermitExpirableSemaphore's permit (its owner is the permit id).
   */
  readonly mode?: "read" | "write" | "permit";
  /** The client (its number in the run, as on its runs) that holds it. */
  readonly client?: number;
}

/** What a client was told of the server's eviction policy (`initialize()`, `eviction-policy`). */
export interface EvictionTold {
  readonly client: number;
  /** Real ms when it was told. */
  readonly at: number;
  readonly policy: string;
}

/** The client's belief about a hold sampled right after an execution: its local deadline. */
export interface BeliefSample {
  readonly seq: number;
  readonly holdId: number;
  /** Real ms right after this hold's deadline was read (each sample its own). */
  readonly at: number;
  /** The local deadline on the real clock (`toJSON().expiresAt` minus the client's skew). */
  readonly deadline: number;
}

export interface AdversaryHistory {
  readonly seed: number;
  readonly config: string;
  readonly faults: boolean;
  readonly executions: Execution[];
  readonly intents: Intent[];
  readonly beliefs: Belief[];
  readonly samples: BeliefSample[];
  /** State of each resource read at quiescence (all callers done, background work settled). */
  final: Record<string, ResourceState>;
  /** Server ms of the final probe (leases running past it are still held at quiescence). */
  finalAt?: number;
  /** Semaphore totals as set before the run. */
  readonly totals: Record<string, number>;
  /**
   * How long past its deadline an operation's record lives (the clients' `operationRecordTtlMs`
   * minus `retryWindowMs`). Absent in histories recorded before it was logged.
   */
  readonly recordMarginMs?: number;
  /**
   * The clients' restart quarantine (absent: off). Only then do grants carry epochs that
   * rollback detection can judge (a core before the protocol engine has no epoch in its replies).
   */
  readonly quarantineMs?: number;
  /**
   * Each sleep a waiting call planned between two attempts (the core's `waited` event), as its
   * client reported it: what the client meant to do, apart from how late its process then did it.
   * Absent in older histories.
   */
  waits?: PlannedWait[];
  /**
   * Where the server's clock stood from the real time when the run began (ms), in a world that
   * steps it (absent: 0, the real time).
   */
  readonly serverClockStartMs?: number;
  /** Faults on the data itself (absent: none; the run's Redis kept every write). */
  dataFaults?: DataFault[];
  /** What clients were told of the eviction policy (absent: none called `initialize()`). */
  evictionTold?: EvictionTold[];
}

/** A waiting call's plan after a busy answer: its next attempt `sleepMs` after `at`. */
export interface PlannedWait {
  readonly intent: number;
  /** Real ms when the client planned it (right after the busy answer). */
  readonly at: number;
  readonly sleepMs: number;
}
