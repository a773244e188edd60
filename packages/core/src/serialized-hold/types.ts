import type { HeldLock, SerializedLease } from "../lock/types.ts";
import type { HeldMultiLock, SerializedMultiLease } from "../multi-lock/types.ts";
import type { Permit, SerializedPermit } from "../permit-semaphore/types.ts";
import type { HeldQuorumLock, SerializedQuorumLease } from "../quorum/types.ts";
import type { SemaphoreHold, SerializedSemaphoreHold } from "../semaphore/types.ts";

/**
 * Every kind of hold, serialised by its `toJSON()`, in one discriminated union over `kind` (the
 * inspector's kind names, plus "multi-lock"); each member is versioned (`v: 1`). What a job
 * queue, a Durable Object keeper or another invocation stores, and `client.resumeHold()` takes.
 */
export type SerializedHold =
  | SerializedLease
  | SerializedMultiLease
  | SerializedPermit
  | SerializedSemaphoreHold
  | SerializedQuorumLease;

/** The kind names of serialised holds. */
export type HoldKind = SerializedHold["kind"];

/** The held type a serialised hold resumes as. */
export type HeldOf<S extends SerializedHold> = S extends SerializedLease
  ? HeldLock
  : S extends SerializedMultiLease
    ? HeldMultiLock
    : S extends SerializedPermit
      ? Permit
      : S extends SerializedSemaphoreHold
        ? SemaphoreHold
        : S extends SerializedQuorumLease
          ? HeldQuorumLock
          : never;

/** Every kind of hold, resumed. */
export type ResumedHold = HeldOf<SerializedHold>;
