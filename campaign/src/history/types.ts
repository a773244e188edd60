import { emptyPushCounts, type PushCounts } from "../world/push-faults.ts";
import type { PrimitiveKind } from "../primitive-kind.ts";

/**
 * The recorded history of a campaign: plain data (JSON-serialisable), so a failing run can be
 * dumped and replayed through the checker. Every `…Seq` is a position in one global sequence
 * taken in the recording process at the moment something was observed: a section entered after
 * another exited has a larger `enterSeq` than the other's `exitSeq`, however coarse the clock.
 */

/** What kind of primitive a section held (the core's kind names, see primitive-kind.ts). */
export type Primitive = Extract<
  PrimitiveKind,
  | "lock"
  | "fair-lock"
  | "read-write-lock:write"
  | "read-write-lock:read"
  | "multi-lock"
  | "semaphore"
  | "permit-expirable-semaphore"
>;

/**
 * exclusive: no other section on the resource at the same time; shared: only other shared
 * sections (readers); counted: at most `capacity` sections at once (semaphores).
 */
export type SectionMode = "exclusive" | "shared" | "counted";

/**
 * released: the server confirmed the hold when it was released; lost: the library told the holder
 * it lost the hold (its signal aborted, or release answered not-held); unknown: the release's
 * outcome stayed unknown (the lease runs out on its own); refused: a semaphore release was refused
 * as an over-release; open: the run ended inside the section.
 */
export type SectionEnd = "released" | "lost" | "unknown" | "refused" | "open";

export interface SectionRecord {
  readonly id: number;
  readonly worker: string;
  readonly primitive: Primitive;
  readonly mode: SectionMode;
  /** Resource ids (`family:name`), one per name the section holds; a multi-lock holds several. */
  readonly resources: readonly string[];
  /** At most this many sections at once on each resource (1 unless counted). */
  readonly capacity: number;
  /** Fencing token per resource, when the primitive gives one. */
  readonly fences: Readonly<Record<string, number>>;
  /** When the acquire call that granted it started: its grant came after this. */
  readonly acquireSeq?: number;
  readonly enterSeq: number;
  exitSeq?: number;
  end?: SectionEnd;
  /** When the holder was told it lost the hold (signal aborted, or release said not held). */
  toldSeq?: number;
  /** How: `signal:<reason>` or `release:<error code>`. */
  toldHow?: string;
  /** A holder that froze past its lease and then wrote anyway (it ignores its signal). */
  readonly frozen: boolean;
  /** When a frozen holder woke up, past its lease. */
  thawSeq?: number;
}

/** One write of a critical section to its fenced resource. */
export interface WriteRecord {
  readonly section: number;
  readonly resource: string;
  readonly fence: number;
  /** When the resource's answer came back. */
  readonly seq: number;
  readonly accepted: boolean;
  /** The resource's own order of writes (accepted or not). */
  readonly order: number;
  /** The writer had already been told it lost the hold (only a frozen holder writes then). */
  readonly afterTold: boolean;
}

/** A reader's look at a resource: the count of writes it had accepted. */
export interface ReadRecord {
  readonly section: number;
  readonly resource: string;
  readonly seq: number;
  readonly version: number;
}

/**
 * How a fault showed itself to a client: a 5xx injected before or after executing (told apart by
 * the status the driver asks for), 503 while Redis is down, a dropped connection, a request that
 * hit `requestTimeoutMs`, or one the caller itself cancelled.
 */
export type HitKind =
  "5xx-before" | "5xx-after" | "5xx" | "unavailable" | "dropped" | "timeout" | "cancelled";

/** A request that failed at the transport level in one worker's client. */
export interface HitRecord {
  readonly id: number;
  readonly worker: string;
  readonly kind: HitKind;
  /** The script (by name) or command the request ran. */
  readonly command: string;
  readonly seq: number;
  /** How the client made it known: a `retried` or `outcome-unknown` event, a thrown typed error, a signal. */
  surfacedBy?: string;
}

/** One fault the driver injected. */
export interface FaultRecord {
  readonly kind: string;
  readonly startSeq: number;
  endSeq?: number;
  /** Requests the fault actually hit (for request faults: the rule's uses consumed). */
  injected: number;
  readonly detail: string;
}

/** Redis came back without its data (detected by a canary key written before the restart). */
export interface DataLossRecord {
  readonly startSeq: number;
  readonly endSeq: number;
  readonly detail: string;
}

/** A reentrant hold count read back inside a section. */
export interface HoldCountRecord {
  readonly section: number;
  readonly expected: number;
  readonly observed: number;
  readonly seq: number;
}

/** One `countDown()` of a latch round. */
export interface LatchCall {
  readonly startSeq: number;
  endSeq?: number;
  /** counted: answered `remaining`; unknown: OutcomeUnknownError; failed: another typed error. */
  outcome?: "counted" | "unknown" | "failed";
  remaining?: number;
}

/** One round of a count-down latch: set to `count`, then counted down until open. */
export interface LatchRoundRecord {
  readonly id: number;
  readonly latch: string;
  readonly count: number;
  readonly setSeq: number;
  readonly calls: LatchCall[];
  /** A read after every call had settled. */
  finalCount?: number;
  endSeq?: number;
}

/** An `await()` on a latch during a round. */
export interface LatchAwaitRecord {
  readonly round: number;
  readonly startSeq: number;
  readonly endSeq: number;
  readonly opened: boolean;
}

/** A semaphore refused a release as an over-release. */
export interface RefusalRecord {
  readonly section: number;
  readonly resource: string;
  readonly seq: number;
}

/** State read back after the run, once every client had settled and every lease had run out. */
export interface FinalRecord {
  readonly resource: string;
  readonly what: "locked" | "available" | "live";
  readonly expected: number;
  readonly observed: number;
}

/**
 * A holder's belief beside the server's lease, read right after the acquire: `believedMs`, how
 * long the holder believed its lease would last (its `toJSON().expiresAt` less its own wall
 * clock) before a `remainingMs()` request that found `serverMs`, and `believedAfterMs` when its
 * answer came, `elapsedMs` later. See checker/lease-honesty.ts.
 */
export interface LeaseProbeRecord {
  readonly section: number;
  readonly believedMs: number;
  readonly believedAfterMs: number;
  readonly serverMs: number;
  readonly elapsedMs: number;
  readonly seq: number;
}

/** An error a worker caught that is not one of the library's typed errors. */
export interface UntypedErrorRecord {
  readonly worker: string;
  readonly operation: string;
  readonly seq: number;
  readonly message: string;
}

export interface History {
  readonly seed: number;
  readonly sections: SectionRecord[];
  readonly writes: WriteRecord[];
  readonly reads: ReadRecord[];
  readonly hits: HitRecord[];
  readonly faults: FaultRecord[];
  readonly dataLosses: DataLossRecord[];
  readonly holdCounts: HoldCountRecord[];
  /** Empty in a history recorded before lease probes were taken (recheck reads it so). */
  readonly leaseProbes: LeaseProbeRecord[];
  readonly latchRounds: LatchRoundRecord[];
  readonly latchAwaits: LatchAwaitRecord[];
  readonly refusals: RefusalRecord[];
  readonly finals: FinalRecord[];
  readonly untyped: UntypedErrorRecord[];
  /** Events counted by type (e.g. `quarantined`: a grant refused by the restart quarantine). */
  readonly events: Record<string, number>;
  /** What the workers' push streams carried (late-push episodes delay or lose messages). */
  readonly push: PushCounts;
}

export function emptyHistory(seed: number): History {
  return {
    seed,
    sections: [],
    writes: [],
    reads: [],
    hits: [],
    faults: [],
    dataLosses: [],
    holdCounts: [],
    leaseProbes: [],
    latchRounds: [],
    latchAwaits: [],
    refusals: [],
    finals: [],
    untyped: [],
    events: {},
    push: emptyPushCounts(),
  };
}
