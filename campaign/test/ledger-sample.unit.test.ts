import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdversaryHistory } from "../src/adversary/history.ts";
import { Ledger, type LeaseView } from "../src/adversary/workload/ledger.ts";
import { realNow } from "../src/adversary/world/intent-context.ts";
import { installClockSkew, type Skew } from "../src/world/clock-skew.ts";

// The ledger's samples are what the oracle judges lease honesty by (`dishonest-lease`): a
// sample must show the deadline the client held at the moment it was read. In the CI gate at
// c209a8c the oracle reported "hold 36 believed for 12 ms more; the server has free" (a Lock
// hold, reorder over TCP), which 399 runs since did not show again (207 of the gate's six lanes,
// 192 of reorder over TCP). Its history stayed on the CI machine. It is what a hold whose local
// lease had run out (its abort timer not yet fired; `expiresAt` then reads "now") shows when
// sampled after a pause of the process earlier in the loop, against the loop's start time.

/** Keeps the process busy for `ms` (a GC pause or the OS taking the core). */
function pause(ms: number): void {
  const until = realNow() + ms;
  while (realNow() < until);
}

function emptyHistory(): AdversaryHistory {
  return {
    seed: 0,
    config: "unit",
    faults: false,
    executions: [],
    intents: [],
    beliefs: [],
    samples: [],
    final: {},
  } as unknown as AdversaryHistory;
}

/** A hold whose local deadline is `leftMs` from the moment its `expiresAt` is read (0: run out). */
function hold(skew: Skew, leftMs: number, stallMs = 0): LeaseView {
  return {
    signal: new AbortController().signal,
    toJSON: () => {
      // As `wallExpiry` reads it: the client's wall clock plus the monotonic time left.
      const expiresAt = Date.now() + leftMs;
      pause(stallMs);
      return { expiresAt };
    },
  };
}

const fields = (owner: string) => ({
  resource: "r:lock",
  owner,
  fence: 1,
  keepAlive: false,
  resumed: false,
});

let uninstall: () => void;
beforeAll(() => {
  uninstall = installClockSkew();
});
afterAll(() => uninstall());

/** Believes `holds` in order, samples them once, and returns the last one's sample. */
function sampleOfLast(...holds: readonly (readonly [LeaseView, Skew])[]) {
  const history = emptyHistory();
  const ledger = new Ledger(history);
  let id = -1;
  for (const [i, [view, skew]] of holds.entries())
    id = ledger.believeLease(view, skew, fields(`o${i}`));
  ledger.sample(1);
  return history.samples.find((x) => x.holdId === id)!;
}

describe("the ledger's sample of a live hold", () => {
  it("a run-out lease read after a pause earlier in the loop is not a deadline ahead", () => {
    const steady: Skew = { ms: 0 };
    // The pause lands in the first hold's read.
    const s = sampleOfLast([hold(steady, 0, 30), steady], [hold(steady, 0), steady]);
    expect(s.deadline).toBeLessThanOrEqual(s.at);
  });

  it("a drifting clock's run-out lease, paused inside its own read, is not a deadline ahead", () => {
    // Running slow (its offset falls 0.1 ms per ms): the offset read after a pause is smaller
    // than the one the client's `Date.now()` carried.
    const slow: Skew = { ms: 0, drift: { msPerSecond: -100, since: realNow(), boundMs: 2_000 } };
    const s = sampleOfLast([hold(slow, 0, 100), slow]);
    expect(s.deadline).toBeLessThanOrEqual(s.at);
  });

  it("a lease still running reads as far ahead as the client believes it, pause or none", () => {
    const skewed: Skew = {
      ms: 1_500,
      drift: { msPerSecond: 100, since: realNow(), boundMs: 2_000 },
    };
    const s = sampleOfLast([hold(skewed, 0, 30), skewed], [hold(skewed, 80), skewed]);
    // The deadline on the real clock, skew taken off: 80 ms after it was read.
    expect(s.deadline - s.at).toBeGreaterThan(78);
    expect(s.deadline - s.at).toBeLessThanOrEqual(80);
  });
});
