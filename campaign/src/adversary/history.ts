/**
 * What an adversarial run records, all of it plain JSON so a failing run can be re-checked
 * offline (`recheck <file>`). Times are real wall-clock ms (`realNow()`), the clock the local
 * redis-server also reads, so server and client times are comparable.
 */

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
    }
  | {
      /** A read-write lock: the writer's hash (the Lock's layout) and every live reader. */
      readonly kind: "rwlock";
      readonly writer: LockState;
      /** Reader owner → its read session (count, fence, server ms at which its lease ends). */
      readonly readers: Readonly<Record<string, ReaderState>>;
    }
  | {
      /** A permit-expirable semaphore: its total and each live permit's lease end (server ms). */
      readonly kind: "permit-semaphore";
      readonly total: number;
      readonly permits: Readonly<Record<string, number>>;
    }
  | {
      /** A count-down latch: its count (0: open, the key gone). */
      readonly kind: "latch";
      readonly count: number;
    };

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
}

/** The primitives the adversary drives (a section count per primitive goes in the report). */
export type Primitive =
  | "lock"
  | "fair-lock"
  | "rw-read"
  | "rw-write"
  | "multi-lock"
  | "semaphore"
  | "permit-semaphore"
  | "latch";

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
}

/** The client's belief about a hold sampled right after an execution: its local deadline. */
export interface BeliefSample {
  readonly seq: number;
  readonly holdId: number;
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
}
