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
}
