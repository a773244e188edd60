import { RECORD_MARGIN_SLACK_MS } from "../../../packages/core/src/context.ts";
import type { WorkloadTilt } from "./workload/actor.ts";
import type { CastSize } from "./workload/cast.ts";
import type { FateMix } from "./world/fates.ts";

/** One adversarial configuration: timings under test and how hostile the network is. */
export interface AdversaryConfig extends CastSize {
  readonly name: string;
  readonly mix: FateMix;
  readonly leaseMs: number;
  readonly requestTimeoutMs: number;
  readonly retryWindowMs: number;
  readonly claimWindowMs: number;
  /** Absent: the client default. */
  readonly operationRecordTtlMs?: number;
  readonly minExtendMs: number;
  readonly maxSkewMs: number;
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

export const CONFIGS: readonly AdversaryConfig[] = [
  REORDER,
  CONGESTED,
  SHORT_RECORDS,
  SERVER_FAULTS,
  CALM,
];
