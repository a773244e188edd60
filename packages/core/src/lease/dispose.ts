import { LockError, OutcomeUnknownError } from "../errors.ts";
import type { EventSink } from "../events.ts";
import type { LeaseState } from "./lease-state.ts";

/** Where and as what a failed release on scope exit is reported. */
export interface DisposeReport {
  readonly emit: EventSink;
  readonly name: string;
  readonly fence: number;
}

/**
 * Releases on scope exit and never throws: it must not replace the caller's own error. A failure
 * is reported as a `release-failed` event, then handed to `afterFailure`.
 */
export async function releaseQuietly(
  release: () => Promise<void>,
  report: DisposeReport,
  afterFailure?: (error: unknown) => void,
): Promise<void> {
  try {
    await release();
  } catch (error) {
    const err = error instanceof Error ? error : new LockError("BACKEND", String(error));
    report.emit({ type: "release-failed", name: report.name, fence: report.fence, error: err });
    afterFailure?.(error);
  }
}

/** After a failed release: unless its outcome is unknown, the holder must not believe it holds. */
export function loseUnlessUnknown(lease: LeaseState): (error: unknown) => void {
  return (error) => {
    if (!(error instanceof OutcomeUnknownError)) lease.lose("release-failed", error);
  };
}
