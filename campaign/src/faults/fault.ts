import type { Stack } from "@edgelock/testkit";
import type { Recorder } from "../history/recorder.ts";
import type { Random } from "../random.ts";
import type { World } from "../workload/world.ts";
import type { WorkerClient } from "../world/worker-client.ts";
import type { Canary } from "./canary.ts";

/** What a fault can reach: the stack (rest-server faults, the Redis process), the workers, the history. */
export interface FaultContext {
  readonly stack: Stack;
  readonly world: World;
  readonly recorder: Recorder;
  readonly rng: Random;
  readonly canary: Canary;
  /** The driver's own client (re-setting semaphores after a data loss; the frozen holder's is its own). */
  readonly driverClient: WorkerClient;
  /** How long a timed fault (latency, armed rules) stays on, at most. */
  readonly episodeMs: number;
  /** The first round (every kind once): request faults hit whatever comes next, so they surely hit. */
  firstRound: boolean;
}

/**
 * One kind of fault. `inject` runs one episode to its end (rules cleared, Redis back up) and
 * records itself with `recorder.fault(kind, …)`. Campaigns take a list of these, so another suite
 * (a cluster's slot migration, a quorum's partitions) adds its own kinds without touching these.
 */
export interface Fault {
  readonly kind: string;
  readonly weight: number;
  inject(ctx: FaultContext): Promise<void>;
}
