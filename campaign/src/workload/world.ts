import type { Recorder } from "../history/recorder.ts";
import type { Random } from "../random.ts";
import type { FencedResources } from "../resource/fenced-resource.ts";
import type { Skew } from "../world/clock-skew.ts";
import type { PushFaults } from "../world/push-faults.ts";
import type { ClientSettings, WorkerClient } from "../world/worker-client.ts";

/** The names each primitive is driven on, and the permits of each semaphore. */
export interface Names {
  /** Lock names; multi-locks take two or three of them, so Lock and MultiLock contend. */
  readonly locks: readonly string[];
  readonly fairLocks: readonly string[];
  readonly readWriteLocks: readonly string[];
  readonly semaphores: readonly { readonly name: string; readonly permits: number }[];
  readonly permitSemaphores: readonly { readonly name: string; readonly permits: number }[];
  readonly latches: readonly string[];
}

export const DEFAULT_NAMES: Names = Object.freeze({
  locks: ["a", "b", "c"],
  fairLocks: ["f"],
  readWriteLocks: ["r"],
  semaphores: [{ name: "s", permits: 2 }],
  permitSemaphores: [{ name: "p", permits: 2 }],
  latches: ["l"],
});

/** Everything the workers and the fault driver share. */
export interface World {
  readonly recorder: Recorder;
  readonly resources: FencedResources;
  readonly names: Names;
  readonly settings: ClientSettings;
  readonly workers: Worker[];
  /** Latches whose round is being run by some worker. */
  readonly latchesBusy: Set<string>;
  /** The share of sections whose lease is probed right after the acquire (see section.ts). */
  readonly leaseProbeChance: number;
}

export interface Worker {
  readonly id: string;
  readonly wc: WorkerClient;
  readonly rng: Random;
  readonly skew: Skew;
  /** How late its streams' messages come, or whether the next is lost (late-push episodes). */
  readonly push: PushFaults;
  readonly world: World;
}
