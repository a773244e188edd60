import { CALM, CONGESTED, REORDER, type AdversaryConfig } from "../configs.ts";

/** Only the Lock and the Semaphore (the actor counts below): none of the other primitives. */
const NO_CAST = {
  fairLockActors: 0,
  rwActors: 0,
  multiLockActors: 0,
  permitActors: 0,
  latchActors: 0,
} as const;

/**
 * Targeted worlds for the mutations: each only the primitive and the faults one defect needs,
 * at the smallest timings, so twenty runs of every mutation fit in the test command's budget.
 */

/**
 * Clocks within 100 ms, and clients that assume so: an unknown outcome then waits a few hundred
 * ms for its deadline to pass, not seconds (with the 2 s bound of the main configs an actor
 * stalls ~4 s per unknown outcome, and a short run sees a handful of calls).
 */
const TIGHT_CLOCKS = { maxSkewMs: 100, clockErrorMs: 100 } as const;

/** Busy locks with late, duplicated and lost requests (a late first copy after its retry). */
export const LOCKS_REORDER: AdversaryConfig = {
  ...REORDER,
  name: "locks-reorder",
  ...NO_CAST,
  lockActors: 4,
  semaphoreActors: 0,
};

/** Busy locks where many first copies run late, after their retry answered (finding 1's shape). */
export const LOCKS_LATE: AdversaryConfig = {
  ...LOCKS_REORDER,
  ...TIGHT_CLOCKS,
  name: "locks-late",
  lockActors: 8,
  // Most first copies held back 60–250 ms: past the resend's (busy) answer or the settle's
  // tombstone, often into a free lock.
  mix: {
    late: 0.1,
    duplicate: 0.05,
    lostResponse: 0.05,
    maxDelayMs: 90,
    firstCopyLate: 0.7,
    firstCopyDelayMs: [60, 250],
  },
};

/** Locks where some calls are congested: every copy (settle and abandon too) runs 150–500 ms late. */
export const LOCKS_CONGESTED: AdversaryConfig = {
  ...CONGESTED,
  ...TIGHT_CLOCKS,
  name: "locks-congested",
  ...NO_CAST,
  lockActors: 6,
  semaphoreActors: 0,
  mix: { ...CONGESTED.mix, slowIntent: 0.5, slowDelayMs: [100, 900] },
};

/** The semaphore alone, congested: releases and acquires whose copies all run late. */
export const SEMAPHORE_CONGESTED: AdversaryConfig = {
  ...CONGESTED,
  ...TIGHT_CLOCKS,
  name: "semaphore-congested",
  ...NO_CAST,
  lockActors: 0,
  semaphoreActors: 4,
  mix: { ...CONGESTED.mix, slowIntent: 0.4 },
};

/** The semaphore alone, many first copies late (as `LOCKS_LATE`). */
export const SEMAPHORE_LATE: AdversaryConfig = {
  ...LOCKS_LATE,
  name: "semaphore-late",
  lockActors: 0,
  semaphoreActors: 5,
};

/**
 * Stragglers: exact clocks (so deadlines are tight: no clock error to add) and congested calls
 * whose copies run 1.5–2.5 s late, after the deadline and after the record and any tombstone
 * expired. Only the deadline refusal (LATE) stands between such a copy and the state.
 */
const STRAGGLER_MIX = { ...REORDER.mix, slowIntent: 0.6, slowDelayMs: [1_500, 2_500] } as const;
export const LOCKS_STRAGGLERS: AdversaryConfig = {
  ...REORDER,
  name: "locks-stragglers",
  maxSkewMs: 0,
  clockErrorMs: 10,
  ...NO_CAST,
  lockActors: 4,
  semaphoreActors: 0,
  mix: STRAGGLER_MIX,
};
export const SEMAPHORE_STRAGGLERS: AdversaryConfig = {
  ...LOCKS_STRAGGLERS,
  name: "semaphore-stragglers",
  ...NO_CAST,
  lockActors: 0,
  semaphoreActors: 4,
};

/**
 * Records as short as finding 6's `retryWindowMs + 1` (only a seam lets validation accept it),
 * exact clocks, lost responses (a copy applies, its caller hears nothing and settles later).
 */
const SHORT_RECORD_MIX = { late: 0.1, duplicate: 0.05, lostResponse: 0.4, maxDelayMs: 90 };
export const LOCKS_SHORT_RECORDS: AdversaryConfig = {
  ...REORDER,
  name: "locks-short-records",
  maxSkewMs: 0,
  clockErrorMs: 10,
  operationRecordTtlMs: REORDER.retryWindowMs + 1,
  ...NO_CAST,
  lockActors: 4,
  semaphoreActors: 0,
  mix: SHORT_RECORD_MIX,
};
export const SEMAPHORE_SHORT_RECORDS: AdversaryConfig = {
  ...LOCKS_SHORT_RECORDS,
  name: "semaphore-short-records",
  ...NO_CAST,
  lockActors: 0,
  semaphoreActors: 4,
};

/**
 * No fault at all, locks only: a kept-alive hold must never be lost. Leases long enough that a
 * keeper renewing at a third of the current lease keeps up on a loaded machine, and short extends
 * (a sixth of the lease and up) that one renewing at a third of the first lease does not.
 */
export const LOCKS_CALM: AdversaryConfig = {
  ...CALM,
  name: "locks-calm",
  ...NO_CAST,
  leaseMs: 600,
  minExtendMs: 100,
  lockActors: 6,
  semaphoreActors: 0,
  tilt: { keepAlive: 1, extend: 1, handOver: 0 },
};

/** Latch rounds alone, many first copies late (as `LOCKS_LATE`). */
export const LATCH_LATE: AdversaryConfig = {
  ...LOCKS_LATE,
  name: "latch-late",
  lockActors: 0,
  latchActors: 2,
};

/**
 * A fresh client (no server time yet: a Worker's first call, a count-down, a resumed release)
 * counts this clock error bound into its deadline, so a settle sent when its budget ran out goes
 * well before the deadline, and a copy arriving after the settle is still in time: only the
 * tombstone refuses it. (A client that knows server time settles at its deadline: any later
 * copy is refused as LATE anyway, and a tombstone mutation cannot show.)
 */
const WIDE_DEADLINES = { maxSkewMs: 100, clockErrorMs: 1_000 } as const;

/** Finding 1's world with wide deadlines: a tryAcquire's settled first copy arrives in time. */
export const LOCKS_LATE_WIDE: AdversaryConfig = {
  ...LOCKS_LATE,
  ...WIDE_DEADLINES,
  name: "locks-late-wide",
  mix: { ...LOCKS_LATE.mix, lostResponse: 0 },
};

/**
 * Settled calls with copies still on their way: congested calls (every copy 150–600 ms late)
 * whose settle gets through, so the caller is told "did not apply" (a tombstone) and the copies
 * arrive after it, within their deadline. Only the tombstone stands between them and the state.
 */
const SETTLED_MIX = {
  ...REORDER.mix,
  slowIntent: 0.5,
  slowDelayMs: [150, 600],
  slowSparesSettle: true,
} as const;
export const LOCKS_SETTLED: AdversaryConfig = {
  ...LOCKS_CONGESTED,
  ...WIDE_DEADLINES,
  name: "locks-settled",
  mix: SETTLED_MIX,
};
export const SEMAPHORE_SETTLED: AdversaryConfig = {
  ...SEMAPHORE_CONGESTED,
  ...WIDE_DEADLINES,
  name: "semaphore-settled",
  semaphoreActors: 5,
  mix: SETTLED_MIX,
};
export const LATCH_SETTLED: AdversaryConfig = {
  ...LOCKS_SETTLED,
  name: "latch-settled",
  lockActors: 0,
  latchActors: 2,
};

/**
 * Congested locks whose clients assume a 1 s clock error: a call given up on waits ~2 s before
 * `OutcomeUnknownError`, and its copies (150–900 ms late) all arrive within that wait. Thrown
 * early, the error is followed by its own copies applying.
 */
export const LOCKS_UNKNOWN: AdversaryConfig = {
  ...LOCKS_CONGESTED,
  name: "locks-unknown",
  maxSkewMs: 0,
  clockErrorMs: 1_000,
  mix: { ...CONGESTED.mix, slowIntent: 0.5, slowDelayMs: [150, 900] },
};
export const SEMAPHORE_UNKNOWN: AdversaryConfig = {
  ...LOCKS_UNKNOWN,
  name: "semaphore-unknown",
  lockActors: 0,
  semaphoreActors: 5,
};

/** Busy locks handed over often between invocations with clocks 2 s apart. */
export const LOCKS_HANDOVER: AdversaryConfig = {
  ...LOCKS_REORDER,
  name: "locks-handover",
  lockActors: 6,
  tilt: { handOver: 0.8 },
};

/** Kept-alive locks extended in every section, with late, duplicated and lost requests. */
export const LOCKS_KEPT: AdversaryConfig = {
  ...LOCKS_REORDER,
  ...TIGHT_CLOCKS,
  name: "locks-kept",
  lockActors: 6,
  tilt: { keepAlive: 1, extend: 1 },
};

/**
 * As `LOCKS_SETTLED` with fixed leases of 0.5–2 s: a settled release's late copy still finds the
 * hold it was meant to release (with 150 ms leases it has expired by then, and changes nothing).
 */
export const LOCKS_SETTLED_LONG: AdversaryConfig = {
  ...LOCKS_SETTLED,
  name: "locks-settled-long",
  leaseMs: 1_000,
  tilt: { keepAlive: 0 },
};

/** The semaphore alone in finding 1's world with wide deadlines. */
export const SEMAPHORE_LATE_WIDE: AdversaryConfig = {
  ...LOCKS_LATE_WIDE,
  name: "semaphore-late-wide",
  lockActors: 0,
  semaphoreActors: 5,
};
