import type { Random } from "../../random.ts";
import type { Invocation } from "../world/invocation.ts";
import type { Ledger } from "./ledger.ts";

/** What one actor (a stream of invocations, as one user's requests) needs. */
export interface ActorContext {
  readonly actor: string;
  readonly random: Random;
  readonly ledger: Ledger;
  /** A fresh invocation: a new client with its own skewed clock. */
  invocation(): Invocation;
  /** Lock names and semaphore names this run uses (multi-locks take the lock names). */
  readonly locks: readonly string[];
  readonly semaphores: readonly string[];
  /** Names of the other primitives this run uses (absent: none). */
  readonly fairLocks?: readonly string[];
  readonly rwLocks?: readonly string[];
  readonly permitSemaphores?: readonly string[];
  readonly latches?: readonly string[];
  /** The key prefix, to name any primitive's resource key. */
  readonly prefix?: string;
  /** The resource key of a name (the oracle's view). */
  lockKey(name: string): string;
  semaphoreKey(name: string): string;
  /** The client lease and the smallest timings in use, to scale sections and extends. */
  readonly leaseMs: number;
  /** The shortest lease an `extend(ms)` asks for. */
  readonly minExtendMs: number;
  /** A config's leaning of the lock actor's choices (absent: the defaults). */
  readonly tilt?: WorkloadTilt | undefined;
  readonly until: number;
}

export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Probabilities of the lock actor's choices, for worlds that aim at one behaviour (a mutation
 * test's world): a kept-alive lease, extending in the section, handing the hold over.
 */
export interface WorkloadTilt {
  readonly keepAlive?: number;
  readonly extend?: number;
  readonly handOver?: number;
  /** Re-entering the hold just taken (default 0.25). */
  readonly reenter?: number;
  /**
   * Fixed leases drawn from this range, ms (default: half to twice the config's `leaseMs`): a
   * lease that outlives the section by seconds, so a stray copy still finds the hold.
   */
  readonly fixedLeaseMs?: readonly [number, number];
  /**
   * A resumed hold released at once, without the extend the docs advise before working on it
   * (a provisional hold may be released): its release then comes from a client that has no
   * server time yet (default 0).
   */
  readonly releaseResumed?: number;
  /**
   * Probability that a Semaphore or PermitExpirableSemaphore section waits in the queue rather
   * than trying once (default 0.5).
   */
  readonly semaphoreWaits?: number;
  /** Probability that a Lock section's first acquire waits rather than trying once (default 0.5). */
  readonly lockWaits?: number;
  /**
   * Probability that a Semaphore section releases from another invocation (`toJSON()` →
   * `resumeHold()`: a fresh client, with no server time yet; default 0.3).
   */
  readonly semaphoreHandOver?: number;
  /** Of the sections that extend, how many extend twice (default 0.5; else once). */
  readonly extendTwice?: number;
  /** How many times a section that extends does so (its one or two extends), in a row (default 1). */
  readonly extendRounds?: number;
  /**
   * Of the rounds of two extends, how many send both at once (default 0): two tasks of one
   * request extending the same hold, renewals racing each other (issue 13).
   */
  readonly racingExtends?: number;
  /**
   * Of two extends, how often the shorter comes last (default 0.5): a kept-alive hold then lives
   * on the short lease, and its keeper must renew at a third of it (finding 7).
   */
  readonly shortLast?: number;
  /** The shorter extend's lease, ms (default: `minExtendMs` to half the client lease). */
  readonly shortExtendMs?: readonly [number, number];
  /** The pause before the extends, ms (default: 0 to half the client lease). */
  readonly pauseBeforeMs?: readonly [number, number];
  /** The pause after the extends, ms (default: 0 to the client lease). */
  readonly pauseAfterMs?: readonly [number, number];
}
