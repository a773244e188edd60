/** One critical section as a worker lived it (monotonic ms, one clock for all workers). */
export interface Section {
  readonly worker: number;
  /** When the worker asked for the lock. */
  readonly requestedAt: number;
  readonly enter: number;
  readonly exit: number;
}

export interface Overlaps {
  /** Sections that began before an earlier one ended: mutual-exclusion violations. */
  readonly violations: number;
  /** Total time two holders were inside at once, ms. */
  readonly overlapMs: number;
}

/** The history checker: sweeps sections by start, against the latest end seen so far. */
export function checkHistory(sections: readonly Section[]): Overlaps {
  const sorted = [...sections].sort((a, b) => a.enter - b.enter);
  let violations = 0;
  let overlapMs = 0;
  let latestExit = -Infinity;
  for (const s of sorted) {
    if (s.enter < latestExit) {
      violations++;
      overlapMs += Math.min(latestExit, s.exit) - s.enter;
    }
    latestExit = Math.max(latestExit, s.exit);
  }
  return { violations, overlapMs };
}
