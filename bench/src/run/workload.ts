import type { LockWorker } from "../libraries/index.ts";
import type { Section } from "./history.ts";
import { exponential, seededRandom } from "./random.ts";

export interface Workload {
  /** N: workers, each with its own client. */
  readonly workers: number;
  /** K: critical sections per worker. */
  readonly sections: number;
  /** C: mean critical section, ms. */
  readonly csMs: number;
  /** Exponentially distributed sections (same mean) instead of fixed ones. */
  readonly irregular: boolean;
  /** Each acquire's wait budget, ms. */
  readonly waitMs: number;
  /** A fixed lease; omitted: each library's default. */
  readonly leaseMs?: number;
}

export interface RunRecord {
  readonly sections: readonly Section[];
  /** Acquires that gave up or threw. */
  readonly failedAcquires: number;
  /** Releases that threw. */
  readonly failedReleases: number;
  /** Holders told their lease was lost (they stop working at once). */
  readonly leasesLost: number;
}

/**
 * Runs N workers at once, each doing K sections: ask, enter (recorded), work C ms — stopping
 * early if the library says the lease is lost — exit (recorded), release.
 */
export async function runWorkload(
  workers: readonly LockWorker[],
  w: Workload,
  seed = 42,
): Promise<RunRecord> {
  const sections: Section[] = [];
  const tally = { failedAcquires: 0, failedReleases: 0, leasesLost: 0 };
  await Promise.all(
    workers.map((worker, index) =>
      runWorker(worker, index, w, seededRandom(seed + index), sections, tally),
    ),
  );
  return { sections, ...tally };
}

async function runWorker(
  worker: LockWorker,
  index: number,
  w: Workload,
  random: () => number,
  out: Section[],
  tally: { failedAcquires: number; failedReleases: number; leasesLost: number },
) {
  for (let k = 0; k < w.sections; k++) {
    const duration = w.irregular ? exponential(random, w.csMs) : w.csMs;
    const requestedAt = performance.now();
    const hold = await worker
      .acquire(
        w.leaseMs === undefined ? { waitMs: w.waitMs } : { waitMs: w.waitMs, leaseMs: w.leaseMs },
      )
      .catch(() => null);
    if (hold === null) {
      tally.failedAcquires++;
      continue;
    }
    const enter = performance.now();
    if (await work(duration, hold.signal)) tally.leasesLost++;
    out.push({ worker: index, requestedAt, enter, exit: performance.now() });
    await hold.release().catch(() => tally.failedReleases++);
  }
}

/** Works `ms`; true when cut short because the lease was lost. */
function work(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(false);
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
