import { RECORD_MARGIN_SLACK_MS } from "../../../packages/core/src/client-options.ts";
import type { WorkloadTilt } from "./workload/actor.ts";
import type { HandOverRace } from "./workload/hand-over-race.ts";
import type { CastSize } from "./workload/cast.ts";
import type { DataFaultPlan } from "./world/data-faults.ts";
import type { FateMix } from "./world/fates.ts";

/** One adversarial configuration: timings under test and how hostile the network is. */
export interface AdversaryConfig extends CastSize {
  readonly name: string;
  readonly mix: FateMix;
  readonly leaseMs: number;
  readonly requestTimeoutMs: number;
  readonly retryWindowMs: number;
  readonly claimWindowMs: number;
  /**
   * The clients' wait strategy: the default (just in time) with this bound of its first backoff
   * sleep, where the server gives no hint when a turn comes (a semaphore's waiters). Absent: the
   * strategy's default (20 ms).
   */
  readonly waitBaseMs?: number;
  /** Absent: the client default. */
  readonly operationRecordTtlMs?: number;
  readonly minExtendMs: number;
  readonly maxSkewMs: number;
  /**
   * Each client's wall clock drifts by up to this many ms per second (absent: none), its offset
   * kept within ±`maxSkewMs` (the bound the clients are told: `clockErrorMs`).
   */
  readonly maxDriftMsPerSecond?: number;
  /**
   * The clients' `clockErrorMs`: the documented bound on a client's wall-clock error, which the
   * protocol counts into every deadline of a client that has no server time yet. The skew drawn
   * stays within it (a clock beyond the bound is outside what the protocol promises).
   */
  readonly clockErrorMs: number;
  readonly lockActors: number;
  readonly semaphoreActors: number;
  /** Leans the lock actor's choices (absent: its defaults). */
  readonly tilt?: WorkloadTilt;
  /**
   * The Lock's names (absent: two names in one hash tag, which the multi-lock takes together).
   * Ill-formed ones (a lone surrogate) are refused by the core: that refusal is the outcome.
   */
  readonly lockNames?: readonly string[];
  /** The clients' restart quarantine (`quarantineMs`; absent: off). */
  readonly quarantineMs?: number;
  /**
   * Lock actors (the first this many) that keep one client for all their sections, as a Node
   * process or a Durable Object does, and so remember what its replies showed (absent: none;
   * every invocation a fresh client, as a Worker per request).
   */
  readonly longLivedActors?: number;
  /**
   * Faults on the data (rollbacks to a snapshot, eviction): the run then starts a Redis of its
   * own without an append-only file, whatever stack it was given.
   */
  readonly dataFaults?: DataFaultPlan;
  /**
   * Requests through the run's own rest-server before the actors start, for this long (ms;
   * absent: none). A fresh rest-server process answers slower than a 40 ms request timeout for
   * its first second or two, and a short world of such timings then sees nothing but
   * `OutcomeUnknownError`.
   */
  readonly warmUpMs?: number;
  /** The server's `maxmemory-policy`, set before the run (absent: Redis's `noeviction`). */
  readonly evictionPolicy?: string;
  /** Every client calls `initialize()` before it acts, as the docs advise (absent: none does). */
  readonly initializeClients?: boolean;
  /** Actors that hand Lock holds over with a renewal in flight (absent: none). */
  readonly race?: HandOverRace;
}

const BASE = {
  leaseMs: 150,
  requestTimeoutMs: 40,
  retryWindowMs: 120,
  claimWindowMs: 60,
  maxSkewMs: 2_000,
  clockErrorMs: 2_000,
  lockActors: 4,
  semaphoreActors: 3,
} as const;

/** Late, duplicated and lost requests; copies held back up to ~2 request timeouts. */
export const REORDER: AdversaryConfig = {
  ...BASE,
  name: "reorder",
  mix: { late: 0.12, duplicate: 0.06, lostResponse: 0.06, maxDelayMs: 90 },
  minExtendMs: 3,
};

/**
 * Some calls on a congested path: every copy they send runs 150–500 ms late, after their retries
 * ran out and their callers moved on (stale renewals, grants to callers told "not acquired").
 */
export const CONGESTED: AdversaryConfig = {
  ...REORDER,
  name: "congested",
  mix: { ...REORDER.mix, slowIntent: 0.15, slowDelayMs: [150, 500] },
};

/**
 * As `reorder`, with operation records as short as validation accepts: retry window + request
 * timeout + twice the clock error bound + the core's 1 s slack (`RECORD_MARGIN_SLACK_MS`).
 */
export const SHORT_RECORDS: AdversaryConfig = {
  ...REORDER,
  name: "short-records",
  operationRecordTtlMs:
    BASE.retryWindowMs + BASE.requestTimeoutMs + 2 * BASE.clockErrorMs + RECORD_MARGIN_SLACK_MS,
  mix: { late: 0.15, duplicate: 0.08, lostResponse: 0.08, maxDelayMs: 250 },
};

/**
 * The rest-server's own faults on top of the scheduler's: per request, a 5xx before or after
 * executing, a connection dropped after executing, a request hung (with or without executing)
 * until its client gives up. Over TCP (no rest-server in the path) it is `reorder` with fewer faults.
 */
export const SERVER_FAULTS: AdversaryConfig = {
  ...REORDER,
  name: "server-faults",
  mix: { late: 0.06, duplicate: 0.03, lostResponse: 0.03, serverFault: 0.12, maxDelayMs: 90 },
};

/** No fault at all: a kept-alive hold must never be lost (extends shorten to no less than lease/3). */
export const CALM: AdversaryConfig = {
  ...BASE,
  name: "calm",
  leaseMs: 300,
  // Long enough that no request times out on a busy 2-core machine: no fault at all.
  requestTimeoutMs: 2_000,
  retryWindowMs: 4_000,
  mix: { late: 0, duplicate: 0, lostResponse: 0, maxDelayMs: 0 },
  minExtendMs: 100,
};

/**
 * `calm` for a run beside every other config at once on a loaded 2-core machine (the test gate).
 * A request stalled for most of a lease is a fault too, and there one was: with every script run
 * serialized behind ~18 actors' runs and probes, an `extend(500)` ran 336 ms after it was sent
 * (the holder's deadline counts from the send), and the keeper's next renewal, a third of a lease
 * later, came after that deadline. So 3 s leases, extends no shorter than 1.5 s: the keeper then
 * tolerates stalls of ~500 ms twice in a row.
 */
export const CALM_LOADED: AdversaryConfig = {
  ...CALM,
  name: "calm-loaded",
  leaseMs: 3_000,
  minExtendMs: 1_500,
};

/**
 * Partial data loss (finding 3): the run's own Redis, without an append-only file, takes an RDB
 * snapshot and later restarts from it with holds live, so the grants, renewals and releases in
 * between are gone. The clients run the restart quarantine (which also counts grants, to detect a
 * rollback); seven lock actors keep one client for the whole run (they can remember the grant
 * epochs their replies showed), one makes one per section (they remember nothing: the documented
 * gap). Locks only; no hand-over (it ends the invocation that held, a long-lived client too).
 */
const DATA_FAULT_WORLD = {
  ...BASE,
  mix: { late: 0, duplicate: 0, lostResponse: 0, maxDelayMs: 0 },
  minExtendMs: 3,
  maxSkewMs: 100,
  clockErrorMs: 100,
  semaphoreActors: 0,
  fairLockActors: 0,
  rwActors: 0,
  multiLockActors: 0,
  permitActors: 0,
  latchActors: 0,
  // Requests that outlast the queue behind a restart on a loaded machine: a reply the client gave
  // up on shows it no epoch, and only what it was shown can it remember.
  requestTimeoutMs: 1_000,
  retryWindowMs: 2_000,
  claimWindowMs: 300,
} as const;

export const DATA_LOSS: AdversaryConfig = {
  ...DATA_FAULT_WORLD,
  name: "data-loss",
  lockActors: 8,
  longLivedActors: 7,
  // Eight names for eight actors: many grants between the snapshot and the rollback (each a grant
  // epoch that the rollback loses and a long-lived client may remember), some contention.
  lockNames: ["a", "b", "c", "d", "e", "f", "g", "h"],
  // As short as validation accepts: a waiter's longest sleep (2 s) plus its request timeout.
  quarantineMs: 3_000,
  dataFaults: { rollbacks: 1, grantsLost: 16 },
  // Mostly fixed leases: a keeper's renewal finds an erased hold gone and tells its holder at
  // once. Leases (400-1600 ms) that outlast a restart (50-200 ms: erased holds are still believed
  // when Redis is back) and a probe read late on a loaded machine (a hold that ran out before its
  // grant was probed shows as `told-not-applied`).
  leaseMs: 800,
  tilt: { handOver: 0, keepAlive: 0.2, extend: 0.3 },
};

/**
 * Eviction (finding 4): the run's own Redis runs `volatile-ttl` (evict the keys nearest their
 * expiry first: lease keys) from the start, with no memory limit yet; every client calls
 * `initialize()` first, which reports that policy (an `eviction-policy` event). Once, a third
 * into the run with locks held, the world sets a limit just above the memory in use and writes
 * filler until every held lock's key is evicted, then lifts the limit. Mutual exclusion is not
 * promised then (docs/guarantees.md): only clients told the policy may see it broken.
 */
export const EVICTION: AdversaryConfig = {
  ...DATA_FAULT_WORLD,
  name: "eviction",
  lockNames: ["a", "b"],
  lockActors: 6,
  // Leases (0.75-3 s) that outlast memory pressure on a loaded machine (up to ~300 ms): the
  // evicted holds are still believed when it ends.
  leaseMs: 1_500,
  tilt: { handOver: 0, keepAlive: 0.2 },
  dataFaults: { evictions: 1 },
  evictionPolicy: "volatile-ttl",
  initializeClients: true,
};

/**
 * Server clock steps forward (an NTP step, a manual change, a failover to a machine whose clock
 * is ahead): the run's own Redis, its wall clock stepped forward three times by more than a lease
 * and more than a call's deadline window, with late, duplicated and lost requests around them,
 * over every primitive. A forward step may end leases early (docs/guarantees.md); it may never
 * make an operation apply twice, or after its caller's answer (`clock-step-excuses.ts`).
 */
export const CLOCK_STEPS: AdversaryConfig = {
  ...REORDER,
  name: "clock-steps",
  // The server starts 600 ms behind and steps forward 3 × 300 ms: always within the clients'
  // clock error bound of the real time (the protocol's assumption for a fresh client), each step
  // past a lease and a retry window.
  maxSkewMs: 100,
  clockErrorMs: 700,
  longLivedActors: 2,
  warmUpMs: 2_000,
  dataFaults: { clockStartMs: -600, clockSteps: [300, 300, 300] },
};

/**
 * Server clock steps both ways: not a gate (docs/guarantees.md promises nothing applied exactly
 * once across a step back: an operation record that ran out before the step lets a copy whose
 * deadline the step made current again apply a second time). `pnpm --filter @edgelock/campaign
 * adversary` with EDGELOCK_ADVERSARY_CONFIG=clock-steps-back shows it.
 */
export const CLOCK_STEPS_BACK: AdversaryConfig = {
  ...CLOCK_STEPS,
  name: "clock-steps-back",
  // Short records (a 100 ms clock error bound): a step forward runs some out early, and the step
  // back after it makes their copies' deadlines current again.
  clockErrorMs: 100,
  dataFaults: { clockSteps: [400, -600, 250, -300] },
};

export const CONFIGS: readonly AdversaryConfig[] = [
  REORDER,
  CONGESTED,
  SHORT_RECORDS,
  SERVER_FAULTS,
  CALM,
];

/** Worlds with faults on the data itself: each run starts a Redis of its own (no shared stack). */
export const DATA_FAULT_CONFIGS: readonly AdversaryConfig[] = [DATA_LOSS, EVICTION, CLOCK_STEPS];

/** Worlds that show what is not promised (violations expected): run only when named. */
export const UNPROMISED_CONFIGS: readonly AdversaryConfig[] = [CLOCK_STEPS_BACK];
