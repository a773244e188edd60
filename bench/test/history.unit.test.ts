import { describe, expect, it } from "vitest";
import type { LockWorker } from "../src/libraries/index.ts";
import { checkHistory } from "../src/run/history.ts";
import { runWorkload } from "../src/run/workload.ts";

describe("the history checker", () => {
  it("counts a deliberately overlapping history as a violation", () => {
    const history = [
      { worker: 0, requestedAt: 0, enter: 0, exit: 10 },
      { worker: 1, requestedAt: 0, enter: 9, exit: 20 }, // enters 1 ms before worker 0 leaves
      { worker: 2, requestedAt: 0, enter: 20, exit: 30 }, // back to back: fine
    ];
    expect(checkHistory(history)).toEqual({ violations: 1, overlapMs: 1 });
  });

  it("finds no violation in back-to-back sections, whatever order they were recorded in", () => {
    const history = [
      { worker: 1, requestedAt: 0, enter: 10, exit: 20 },
      { worker: 0, requestedAt: 0, enter: 0, exit: 10 },
    ];
    expect(checkHistory(history).violations).toBe(0);
  });

  it("catches a 'lock' that lets everyone in, through the real workload", async () => {
    const noLock: LockWorker = {
      acquire: async () => ({ release: async () => undefined }),
      close: async () => undefined,
    };
    const run = await runWorkload([noLock, noLock, noLock], {
      workers: 3,
      sections: 3,
      csMs: 5,
      irregular: false,
      waitMs: 1_000,
    });
    expect(run.sections).toHaveLength(9);
    expect(checkHistory(run.sections).violations).toBeGreaterThan(0);
  });
});
