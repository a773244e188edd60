import { CALM, CONGESTED, EVICTION, REORDER, type AdversaryConfig } from "../configs.ts";

/** Only the Lock and the Semaphore (the actor counts below): none of the other primitives. */
const NO_CAST = {
  fairLockActors: 0,
  rwActors: 0,
  multiLockActors: 0,
  permitActors: 0,
  latchActors: 0,
  redeliveryActors: 0,
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
 * No fault at all, locks only: a kept-alive hold must never be lost. Every section keeps its
 * hold alive on a 6 s lease, extends it (longer), then to a much shorter lease of 1.5–1.9 s, and
 * holds on ~4 s more. A keeper renewing at a third of the current lease (0.5–0.63 s) rides out
 * round trips of ~0.5 s per renewal (seen on the loaded 2-core machine: 0.25–0.3 s, and more
 * with a lint beside: a 1.1 s lease was lost once); one still renewing at a third of the first
 * lease (2 s, longer than the short lease) loses the hold within two short leases of the extend
 * (finding 7), in every section.
 */
export const LOCKS_CALM: AdversaryConfig = {
  ...CALM,
  name: "locks-calm",
  ...NO_CAST,
  leaseMs: 6_000,
  minExtendMs: 1_500,
  lockActors: 4,
  semaphoreActors: 0,
  tilt: {
    keepAlive: 1,
    extend: 1,
    handOver: 0,
    extendTwice: 1,
    shortLast: 1,
    shortExtendMs: [1_500, 1_900],
    pauseBeforeMs: [0, 200],
    pauseAfterMs: [3_900, 4_100],
  },
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
  // Ordered by the settle, not the clock: on a loaded machine a copy held a drawn time ran
  // before the settle (it then answered, and no tombstone was left to ignore) or past the deadline.
  slowUntilSettled: true,
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
/**
 * Settled lock acquires: half of the acquires congested (every copy held until the call's
 * settle has run), the settle getting through, so the caller is told "did not apply" (a
 * tombstone) and its copies arrive right after, inside the deadline a fresh client's 1 s clock
 * error bound widens. A late copy that finds the lock free would grant it to nobody: only the
 * tombstone refuses it. Request timings that a loaded machine's queue does not outlast.
 */
export const LOCKS_SETTLED_ACQUIRES: AdversaryConfig = {
  ...LOCKS_SETTLED,
  name: "locks-settled-acquires",
  requestTimeoutMs: 250,
  retryWindowMs: 300,
  lockActors: 4,
  // A name each: the late copy finds its lock free (a busy answer shows nothing).
  lockNames: ["a", "b", "c", "d"],
  mix: { ...SETTLED_MIX, slowScripts: ["lock/acquire"], slowDelayMs: [1_500, 1_500] },
  tilt: { keepAlive: 0, fixedLeaseMs: [300, 600] },
};
/**
 * Settled Semaphore releases: every release from a fresh client (handed over: its deadline
 * widened by the 1 s clock error bound) and most of them congested, the settle getting
 * through, so the caller is told "did not apply" and the copies arrive right after, in time.
 * Only the tombstone keeps them from giving the permits back twice.
 */
export const SEMAPHORE_SETTLED_RELEASES: AdversaryConfig = {
  ...unhurried(SEMAPHORE_SETTLED, 2),
  name: "semaphore-settled-releases",
  semaphoreActors: 6,
  mix: {
    ...unhurried(SEMAPHORE_SETTLED, 2).mix,
    slowIntent: 0.7,
    slowScripts: ["semaphore/release"],
  },
  tilt: { semaphoreHandOver: 1 },
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

/**
 * Semaphore acquires in doubt: half of them congested, every copy held until the call's settle,
 * and the settle lost before it runs, so the caller's outcome stays unknown. The copies run as
 * soon as the caller heard of that loss: inside the deadline (a fresh client's, widened by the
 * 1 s clock error bound), before an `OutcomeUnknownError` thrown when the deadline has surely
 * passed, after one thrown early.
 */
export const SEMAPHORE_UNKNOWN_SETTLE_LOST: AdversaryConfig = {
  ...SEMAPHORE_UNKNOWN,
  name: "semaphore-unknown-settle-lost",
  requestTimeoutMs: 250,
  retryWindowMs: 300,
  mix: {
    ...REORDER.mix,
    slowIntent: 0.5,
    slowScripts: ["semaphore/acquire"],
    slowDelayMs: [1_500, 1_500],
    slowUntilSettled: true,
    slowSettleLost: true,
  },
};

/** Busy locks handed over often between invocations with clocks 2 s apart. */
export const LOCKS_HANDOVER: AdversaryConfig = {
  ...LOCKS_REORDER,
  name: "locks-handover",
  lockActors: 6,
  tilt: { handOver: 0.8 },
};

/**
 * Kept-alive locks whose sections extend ten times two at once (a longer lease, then a shorter
 * one: two tasks of one request renewing the same hold), with lost responses that hang a whole
 * request timeout. Queued, the second carries the version the first left; both at once, the
 * shorter one is refused stale, goes again and applies last, while the longer one's answer, its
 * response lost, reaches the holder last (its retry fetches the recorded answer 0.5 s later).
 * The shorter lease (1.7–2 s) outlives two lost responses of one extend in a row, so a hold
 * lasts its ten rounds (with 1–1.4 s, most holds ran out within a few, and a run saw few races).
 */
export const LOCKS_KEPT: AdversaryConfig = {
  ...LOCKS_REORDER,
  ...TIGHT_CLOCKS,
  name: "locks-kept",
  // Timings a loaded 2-core machine keeps (with 40 ms requests and 150 ms leases there, most
  // calls ended in unknown outcomes and most holds ran out), and leases that outlive a few
  // renewals in doubt.
  leaseMs: 4_000,
  requestTimeoutMs: 500,
  retryWindowMs: 1_500,
  mix: {
    late: 0,
    duplicate: 0,
    lostResponse: 0.33,
    lostResponseHangs: 1,
    maxDelayMs: 0,
    faultKinds: ["extend"],
  },
  lockActors: 6,
  // More leases at once: the FairLock's and both read-write locks' (every leased hold renews
  // through the same ordered renewals), beside the two Lock names.
  fairLockActors: 3,
  rwActors: 4,
  tilt: {
    keepAlive: 1,
    extend: 1,
    // No hand-overs: a hold lost to a renewal in doubt, then serialised, carried a live-looking
    // expiresAt (reported to the main session: LeaseState.renewed() after the loss), which the
    // control here reported as dishonest-resume; this world is about one object's renewals.
    handOver: 0,
    extendTwice: 1,
    shortLast: 1,
    shortExtendMs: [1_700, 2_000],
    extendRounds: 10,
    racingExtends: 1,
    pauseBeforeMs: [0, 100],
    pauseAfterMs: [0, 200],
  },
};

/** The semaphore alone in finding 1's world with wide deadlines. */
export const SEMAPHORE_LATE_WIDE: AdversaryConfig = {
  ...LOCKS_LATE_WIDE,
  name: "semaphore-late-wide",
  lockActors: 0,
  semaphoreActors: 5,
};

/**
 * Finding 1's worlds for a loaded machine (the test runs them beside the adversary gate): every
 * section waits (a `tryAcquire` has one request timeout in all, so its held first copy is never
 * overtaken by a resend: it is settled, and the tombstone refuses the copy whatever the acquire
 * script records), with room in its wait for a resend, whose answer the held first copy follows.
 */
const LATE_WAITING = { retryWindowMs: 600, tilt: { lockWaits: 1 } } as const;
// Once overtaken, the first copy runs right after the resource is next free (up to 1 s later),
// where a grant is real: timed by the state it needs, not by the clock.
const UNTIL_FREE = (config: AdversaryConfig) =>
  ({ ...config.mix, firstCopyUntilFree: true, firstCopyDelayMs: [1_000, 1_000] }) as const;
export const LOCKS_LATE_ANSWERED: AdversaryConfig = {
  ...unhurried(LOCKS_LATE_WIDE, 2),
  ...LATE_WAITING,
  name: "locks-late-answered",
  lockActors: 8,
  mix: UNTIL_FREE(unhurried(LOCKS_LATE_WIDE, 2)),
};
export const SEMAPHORE_LATE_ANSWERED: AdversaryConfig = {
  ...unhurried(SEMAPHORE_LATE_WIDE, 2),
  ...LATE_WAITING,
  name: "semaphore-late-answered",
  semaphoreActors: 8,
  mix: UNTIL_FREE(unhurried(SEMAPHORE_LATE_WIDE, 2)),
};

/**
 * Request timings for worlds whose every run must take a hold before it can show anything. Four
 * worlds at once on a loaded 2-core machine answer in 50–100 ms at times: with the 40 ms request
 * timeout whole runs saw every acquire end unknown (each unknown adding a settle and an abandon
 * to the queue) and never held anything to release.
 */
const UNHURRIED = { requestTimeoutMs: 150, retryWindowMs: 300 } as const;

/**
 * Stragglers aimed at lock releases: every release is congested (its copies and its settle
 * 2.5–3.5 s late, after its record expired: deadline + the 1.6 s record margin of these timings)
 * and the holds it releases have fixed leases of 6–8 s, so a straggling copy still finds the hold
 * live long after its caller was told the outcome is unknown. Only the deadline refusal keeps it
 * from freeing the hold.
 */
export const LOCKS_STRAGGLING_RELEASES: AdversaryConfig = {
  ...LOCKS_STRAGGLERS,
  ...UNHURRIED,
  name: "locks-straggling-releases",
  mix: {
    ...STRAGGLER_MIX,
    slowIntent: 1,
    slowScripts: ["lock/release"],
    slowDelayMs: [2_500, 3_500],
  },
  tilt: { keepAlive: 0, extend: 0, reenter: 0, handOver: 0, fixedLeaseMs: [6_000, 8_000] },
};

/**
 * Settled releases from fresh clients: every hold is handed over (`toJSON` → resume in a new
 * invocation) and released at once, before any renewal, so the release's client has no server
 * time and counts the 2 s clock error bound into its deadline. Every release is congested and its
 * settle gets through: the caller is told "did not apply" (a tombstone, 300–550 ms after the
 * first send) while the copies, 0.8–1.5 s late, are still within the deadline (~2.3 s), and the
 * 3–4 s lease still holds. Only the tombstone keeps them from freeing it.
 */
export const LOCKS_SETTLED_RESUMED_RELEASES: AdversaryConfig = {
  ...LOCKS_SETTLED,
  // The settle must get through: it waits its turn behind the run's other copies and probes,
  // which on a loaded machine took longer than 150 ms in one run of twenty.
  requestTimeoutMs: 250,
  retryWindowMs: 300,
  // A deadline 2.3 s after the first send: there the copies, held back 0.8–1.5 s and then queued
  // behind the run's other copies (up to ~0.5 s when loaded), still arrive in time.
  clockErrorMs: 2_000,
  name: "locks-settled-resumed-releases",
  lockActors: 4,
  mix: { ...SETTLED_MIX, slowIntent: 1, slowScripts: ["lock/release"], slowDelayMs: [800, 1_500] },
  tilt: {
    keepAlive: 0,
    extend: 0,
    reenter: 0,
    handOver: 1,
    releaseResumed: 1,
    fixedLeaseMs: [3_000, 4_000],
  },
};

/**
 * Finding 6's short records, 60% of the replies lost, and fixed leases of 6–8 s (3–5 s ran out before a loaded run was over: 17–20/20). An acquire
 * whose reply and settle were both lost is abandoned once its deadline passed: with a record of
 * `retryWindowMs + 1` (its margin past the deadline: 1 ms) the abandon no longer finds what the
 * acquire took and leaves the grant to nobody, holding the lock past the end of the run (a grant
 * that ran out by a short lease untouched harms no one, and the oracle excuses it). Timings
 * unhurried, or a loaded machine refuses every copy as late and nothing is granted.
 */
export const LOCKS_SHORT_RECORDS_LONG: AdversaryConfig = {
  ...LOCKS_SHORT_RECORDS,
  ...UNHURRIED,
  operationRecordTtlMs: UNHURRIED.retryWindowMs + 1,
  name: "locks-short-records-long",
  lockActors: 5,
  // A name each: a copy that took a name for nobody blocks it for a whole 6-8 s lease, and on two
  // names one run in forty had both blocked early and told no one "not acquired" after that.
  lockNames: ["a", "b", "c", "d", "e"],
  mix: { ...SHORT_RECORD_MIX, lostResponse: 0.6 },
  tilt: { keepAlive: 0, fixedLeaseMs: [6_000, 8_000] },
};

/**
 * Finding 6's world for the semaphore, unhurried like the lock's: six actors, most responses
 * lost (a lost answer is what sends a settle or a repeat past a record that expired too soon);
 * at 0.4 lost responses over 6 s, 35 runs in 40 caught the mutation.
 */
export const SEMAPHORE_SHORT_RECORDS_LOSSY: AdversaryConfig = (() => {
  const slow = unhurried(SEMAPHORE_SHORT_RECORDS, 2);
  return { ...slow, semaphoreActors: 6, mix: { ...slow.mix, lostResponse: 0.6 } };
})();

/**
 * Finding 4's world for the mutation: `EVICTION` with two evictions, each in its own half of the
 * run. With one, about one run in forty showed nothing (the holds evicted were released or
 * renewed before anyone saw the gap), and a 20-run gate that needs 19 fails ~9 % of the time then.
 */
export const EVICTION_TWICE: AdversaryConfig = {
  ...EVICTION,
  name: "eviction-twice",
  dataFaults: { ...EVICTION.dataFaults, evictions: 2 },
};

/**
 * `LOCKS_STRAGGLING_RELEASES` for the semaphore's acquires: half of them congested, every copy
 * (and the settle) 2.5–3.5 s late, past the deadline and the record. Only the deadline refusal
 * keeps a straggler from taking permits for a caller told the outcome is unknown.
 */
export const SEMAPHORE_STRAGGLING_ACQUIRES: AdversaryConfig = {
  ...LOCKS_STRAGGLING_RELEASES,
  name: "semaphore-straggling-acquires",
  lockActors: 0,
  semaphoreActors: 4,
  mix: { ...LOCKS_STRAGGLING_RELEASES.mix, slowIntent: 0.5, slowScripts: ["semaphore/acquire"] },
};

/**
 * `LOCKS_STRAGGLING_RELEASES` for the Semaphore's releases: every release congested, its copies
 * and settle 2.5–3.5 s late, past the deadline and the record; the permits it gives back are
 * still taken (an unleased permit is held until released). Only the deadline refusal keeps a
 * straggler from giving permits back for a caller told the outcome is unknown.
 */
export const SEMAPHORE_STRAGGLING_RELEASES: AdversaryConfig = {
  ...SEMAPHORE_STRAGGLING_ACQUIRES,
  name: "semaphore-straggling-releases",
  mix: { ...SEMAPHORE_STRAGGLING_ACQUIRES.mix, slowIntent: 1, slowScripts: ["semaphore/release"] },
};

/**
 * `LOCKS_SETTLED_RESUMED_RELEASES` for the semaphore's acquires (each from a fresh client, its
 * deadline ~2.3 s out): half of them congested with the settle getting through, so the caller is
 * told "did not apply" while the copies, 0.8–1.5 s late, are still in time. Only the tombstone
 * keeps them from taking permits.
 */
export const SEMAPHORE_SETTLED_ACQUIRES: AdversaryConfig = {
  ...LOCKS_SETTLED_RESUMED_RELEASES,
  name: "semaphore-settled-acquires",
  lockActors: 0,
  semaphoreActors: 5,
  mix: {
    ...LOCKS_SETTLED_RESUMED_RELEASES.mix,
    slowIntent: 0.5,
    slowScripts: ["semaphore/acquire"],
  },
};

/**
 * Waiters queued on the Semaphore (3 permits, 1–2 a call, eight actors that always wait, no
 * fault): waits of up to 1 s, holds of up to 0.5 s, direct grants reserved for 200 ms (so the
 * world's own queueing of requests on a loaded machine seldom outlasts one), and waiters whose
 * backoff starts at 100 ms and doubles (the default strategy caps it by the claim window). A
 * waiter that sleeps past the claim window loses its grant to the next head (finding 8).
 */
export const SEMAPHORE_QUEUE: AdversaryConfig = {
  ...CALM,
  ...TIGHT_CLOCKS,
  name: "semaphore-queue",
  ...NO_CAST,
  leaseMs: 800,
  claimWindowMs: 100,
  waitBaseMs: 400,
  lockActors: 0,
  semaphoreActors: 5,
  tilt: { semaphoreWaits: 1 },
};

/**
 * `SEMAPHORE_QUEUE` on the PermitExpirableSemaphore (2 permits, one a call): finding 8 there. A
 * few requests run up to 10 ms late: a world with faults, where a kept-alive permit that a
 * loaded machine's keeper renewed too late is not reported as lost without a fault.
 */
export const PERMITS_QUEUE: AdversaryConfig = {
  ...SEMAPHORE_QUEUE,
  name: "permits-queue",
  maxSkewMs: CALM.maxSkewMs,
  clockErrorMs: CALM.clockErrorMs,
  mix: { late: 0.02, duplicate: 0, lostResponse: 0, maxDelayMs: 10 },
  semaphoreActors: 0,
  permitActors: 5,
  leaseMs: 800,
  claimWindowMs: 60,
  waitBaseMs: 600,
};

/**
 * Finding 5's names: `x\uFFFD` always, and `x\uD800`/`x\uDFFF`, which differ from it only by a
 * lone surrogate (U+FFFD on the wire). The core refuses those two (typed `InvalidArgumentError`,
 * the outcome their actors record); accepted, they would share `x\uFFFD`'s keys.
 */
export const LOCKS_SURROGATE_NAMES: AdversaryConfig = {
  ...LOCKS_REORDER,
  ...TIGHT_CLOCKS,
  name: "locks-surrogate-names",
  lockActors: 6,
  lockNames: ["x\uFFFD", "x\uD800", "x\uDFFF"],
};

/**
 * Holds handed over while the first invocation's shorter `extend` is still on its way (its copies
 * 200–400 ms late): the resumed hold extends to a long lease at once, so the late copy, carrying
 * the lease version from before, arrives after it and well within its deadline (a retry window
 * of 1.2 s). Only the version tells it is stale (finding 2, with two renewers).
 */
export const LOCKS_HANDOVER_RACE: AdversaryConfig = {
  ...REORDER,
  name: "locks-handover-race",
  // Exact clocks: the resumed hold trusts the carried deadline less twice the clock error, and
  // that deadline is the in-flight extend's (it may shorten the lease): with a 100 ms error the
  // resumed hold would be over before its first renewal.
  maxSkewMs: 0,
  clockErrorMs: 10,
  ...NO_CAST,
  lockActors: 0,
  semaphoreActors: 0,
  // Requests that do not time out on a loaded machine (with 40 ms most acquires there did).
  requestTimeoutMs: 400,
  retryWindowMs: 1_200,
  mix: {
    late: 0,
    duplicate: 0,
    lostResponse: 0,
    maxDelayMs: 0,
    slowIntent: 1,
    slowDelayMs: [200, 400],
    faultKinds: ["extend"],
  },
  race: {
    actors: 4,
    leaseMs: [1_500, 2_000],
    inFlightExtendMs: [400, 600],
    resumeExtendMs: [1_500, 2_500],
    holdMs: [600, 800],
  },
};

/**
 * Holds handed over (nothing in flight) on ~6 s leases, whose resumed hold's first `extend`
 * (1.4–1.6 s: the hold must outlive that renewal's doubt until the settle) runs 2.9–3.3 s late,
 * every copy: past its deadline (the retry window: a provisional hold's renewal budget) and past
 * the settle's tombstone (deadline + record margin: 0.8 + 1.82 s), while the lease it renews
 * still runs and no renewal has moved its version. The settle gets through, so the holder, told
 * the extend did not apply, keeps its resumed hold on the carried lease, which the copy would
 * shorten. Only the deadline stands between that copy and the lease. Requests of 0.4 s: with
 * 0.15 s, a machine loaded by a lint beside lost an acquire's reply and its settle's, and its
 * abandon came after the record: a 4 s orphan hold outlived the run (the control reported it).
 */
export const LOCKS_RESUME_STRAGGLERS: AdversaryConfig = {
  ...REORDER,
  name: "locks-resume-stragglers",
  maxSkewMs: 0,
  clockErrorMs: 10,
  // Requests that do not time out on a loaded machine (with 40 ms most acquires there did).
  requestTimeoutMs: 400,
  retryWindowMs: 800,
  ...NO_CAST,
  lockActors: 0,
  semaphoreActors: 0,
  mix: {
    late: 0,
    duplicate: 0,
    lostResponse: 0,
    maxDelayMs: 0,
    slowIntent: 1,
    slowDelayMs: [2_900, 3_300],
    faultKinds: ["resume-extend"],
    slowSparesSettle: true,
  },
  race: {
    actors: 3,
    leaseMs: [5_800, 6_200],
    resumeExtendMs: [1_400, 1_600],
    holdMs: [2_900, 3_100],
  },
};

/** `LOCKS_HANDOVER_RACE` on a PermitExpirableSemaphore's permits (2 permits, one name). */
export const PERMITS_HANDOVER_RACE: AdversaryConfig = {
  ...LOCKS_HANDOVER_RACE,
  name: "permits-handover-race",
  mix: { ...LOCKS_HANDOVER_RACE.mix, faultKinds: ["permit-extend"] },
  race: { ...LOCKS_HANDOVER_RACE.race!, hold: "permit" },
};

/**
 * `config` with every timing the network and the clients keep (leases, request timeout, retry
 * window, claim window, the shortest extend, the fates' delays) `k` times longer, its clocks as
 * they were. A loaded machine (the test command runs these beside other suites) adds tens of ms
 * to every request: at 40 ms request timeouts every call then times out and settles, and a late
 * copy meets a tombstone instead of the state a mutation would let it spoil. Stretched, the
 * world keeps its shape (which copy overtakes which) under that load. A record TTL of the retry
 * window + 1 (finding 6's) stays the stretched retry window + 1.
 */
export function unhurried(config: AdversaryConfig, k: number): AdversaryConfig {
  const ms = (v: number) => Math.round(v * k);
  const range = (r: readonly [number, number] | undefined) =>
    r === undefined ? {} : ([ms(r[0]), ms(r[1])] as const);
  const { mix } = config;
  const ttl = config.operationRecordTtlMs;
  return {
    ...config,
    name: `${config.name}-x${k}`,
    leaseMs: ms(config.leaseMs),
    requestTimeoutMs: ms(config.requestTimeoutMs),
    retryWindowMs: ms(config.retryWindowMs),
    claimWindowMs: ms(config.claimWindowMs),
    minExtendMs: ms(config.minExtendMs),
    ...(ttl === undefined
      ? {}
      : {
          operationRecordTtlMs:
            ttl === config.retryWindowMs + 1 ? ms(config.retryWindowMs) + 1 : ms(ttl),
        }),
    mix: {
      ...mix,
      maxDelayMs: ms(mix.maxDelayMs),
      ...(mix.slowDelayMs === undefined ? {} : { slowDelayMs: range(mix.slowDelayMs) }),
      ...(mix.firstCopyDelayMs === undefined
        ? {}
        : { firstCopyDelayMs: range(mix.firstCopyDelayMs) }),
    } as AdversaryConfig["mix"],
  };
}
