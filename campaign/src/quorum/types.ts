import type { Recorder } from "../history/recorder.ts";
import type { FencedResources } from "../resource/fenced-resource.ts";
import type { Random } from "../random.ts";

/** How a database went down and came back. */
export type RestartKind = "crash" | "crash-flush" | "bounce" | "bounce-flush";

/** A window in which a majority (3 of 5) of the databases was down. */
export interface MajorityDownEpisode {
  /** After the third database was down. */
  readonly startSeq: number;
  /** Before the first of them started again. */
  endSeq: number;
  readonly down: readonly number[];
}

/** What the partition driver did, beside the recorder's history. */
export interface DriverLog {
  readonly restarts: Record<RestartKind, number>;
  readonly episodes: MajorityDownEpisode[];
  /** Most databases down at once outside the majority-down episodes. */
  maxDownOutsideEpisodes: number;
}

/** An acquire call and how it ended (for the fail-safe check of the majority-down episodes). */
export interface AcquireRecord {
  readonly startSeq: number;
  readonly endSeq: number;
  /** granted, busy (null from tryAcquire) or the typed error's code. */
  readonly outcome: string;
}

/** Shared by the driver and the workers of one quorum campaign. */
export interface QuorumWorld {
  readonly recorder: Recorder;
  readonly resources: FencedResources;
  readonly urls: readonly string[];
  readonly prefix: string;
  readonly names: readonly string[];
  readonly acquires: AcquireRecord[];
  readonly deadline: number;
  readonly rng: Random;
}
