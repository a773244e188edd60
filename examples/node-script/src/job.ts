import type { EdgelockClient } from "@edgelock/core";

/** Options of `runNightlyJob`. */
export interface JobOptions {
  /** How long to wait if another instance runs the job. @default 0 (skip this run) */
  readonly waitMs?: number;
  /** Simulated work, in ms. @default 1_500 */
  readonly workMs?: number;
  readonly log?: (line: string) => void;
}

/**
 * A job that must never run twice at once (two cron hosts, an overlapping schedule). The default
 * lease (30 s) is renewed by the timer keeper while the process lives; `held.signal` stops the
 * work if the lease is ever lost.
 */
export async function runNightlyJob(
  edgelock: EdgelockClient,
  o: JobOptions = {},
): Promise<"done" | "skipped"> {
  const log = o.log ?? console.log;
  const held = await edgelock.lock("jobs:nightly-report").tryAcquire();
  if (!held && !o.waitMs) {
    log("another instance holds jobs:nightly-report: skipping this run");
    return "skipped";
  }
  await using h =
    held ?? (await edgelock.lock("jobs:nightly-report").acquire({ waitMs: o.waitMs ?? 0 }));
  log(`holding jobs:nightly-report with fence ${h.fence}`);
  for (let step = 1; step <= 3; step++) {
    h.signal.throwIfAborted(); // lease lost: stop before doing more
    await new Promise((resolve) => setTimeout(resolve, (o.workMs ?? 1_500) / 3));
    log(`step ${step}/3 done`);
  }
  return "done";
}
