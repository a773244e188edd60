import type { Interval, Overlap } from "./interval-recorder.ts";

/** Base of every error the testkit throws; `code` says which. */
export class TestkitError extends Error {
  override readonly name: string = "TestkitError";
  readonly code: TestkitErrorCode;

  constructor(code: TestkitErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

export type TestkitErrorCode =
  "redis-start" | "redis-stopped" | "fault-control" | "overlap" | "harness-missing" | "env";

/** redis-server did not come up; `log` is the tail of its log file. */
export class RedisStartError extends TestkitError {
  override readonly name = "RedisStartError";
  readonly port: number;
  readonly log: string;
  readonly portInUse: boolean;

  constructor(port: number, log: string, reason: string) {
    super("redis-start", `redis-server on port ${port} did not start: ${reason}\n${log}`);
    this.port = port;
    this.log = log;
    this.portInUse = /address already in use/i.test(log);
  }
}

/** A control endpoint of the rest-server answered with a non-2xx status. */
export class FaultControlError extends TestkitError {
  override readonly name = "FaultControlError";
  readonly status: number;
  readonly body: string;

  constructor(method: string, path: string, status: number, body: string) {
    const hint = status === 404 ? " (is the rest-server started with enableFaults: true?)" : "";
    super("fault-control", `${method} ${path} answered ${status}${hint}: ${body}`);
    this.status = status;
    this.body = body;
  }
}

/** `IntervalRecorder.assertNoOverlap()` found sections of different owners open at once. */
export class IntervalOverlapError extends TestkitError {
  override readonly name = "IntervalOverlapError";
  readonly overlaps: readonly Overlap[];

  constructor(overlaps: readonly Overlap[]) {
    const lines = overlaps.map(
      ({ first, second }) => `  ${describe(first)} overlaps ${describe(second)}`,
    );
    super("overlap", `${overlaps.length} overlapping critical section(s):\n${lines.join("\n")}`);
    this.overlaps = overlaps;
  }
}

function describe(interval: Interval): string {
  const fence = interval.fence === undefined ? "" : ` fence ${interval.fence}`;
  const end = interval.exitedAt === undefined ? "open" : `${interval.exitedAt.toFixed(2)} ms`;
  return `#${interval.order} ${interval.owner}${fence} [${interval.enteredAt.toFixed(2)} ms – ${end}]`;
}
