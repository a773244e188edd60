import { describe, expect, it } from "vitest";
import { recordedHistory } from "./fixtures/recorded-history.ts";
import { checkAdversaryHistory } from "../src/adversary/oracle/check.ts";

// A recorded run of a world that stepped the server's clock forward and back (+400, −600, +250,
// −300 ms; REORDER faults, 100 ms clock error bound; the world now named clock-steps-back): the
// evidence behind docs/guarantees.md's "a step back can make an operation apply twice". A
// Semaphore release's record ran out early after the +400 ms step; the −600 ms step made the
// deadline its repeat carried current again, and the repeat gave the permit back a second time.
// The oracle, forward-step excuses and all, must still report it.

const history = recordedHistory("clock-steps-back-double-release.json.gz");

describe("a server clock stepped back (recorded run)", () => {
  it("stepped back after stepping forward", () => {
    const steps = (history.dataFaults ?? []).filter((f) => f.kind === "clock-step");
    expect(steps.map((s) => s.stepMs)).toEqual([400, -600, 250, -300]);
  });

  it("the oracle reports the Semaphore release applied twice", () => {
    const { counts } = checkAdversaryHistory(history);
    expect(counts["release-mismatch"]).toBeGreaterThanOrEqual(1);
    expect(counts["permits-created"]).toBeGreaterThanOrEqual(1);
  });

  it("the second application is a copy of the same operation, run after the step back", () => {
    const copies = history.executions.filter(
      (e) => e.opId === "icHElqsmYfifvpDMbfzKNg" && e.script === "semaphore/release",
    );
    const answer = (e: (typeof copies)[number]) => (e.reply as number[]).slice(0, 2).join(",");
    // The first copy answered "released, 0 available" and every copy after it the same recorded
    // answer, until one after the step back found no record and released again ("1 available").
    expect(answer(copies[0]!)).toBe("1,0");
    const again = copies.find((e) => answer(e) !== "1,0")!;
    expect(answer(again)).toBe("1,1");
    const back = (history.dataFaults ?? []).find((f) => f.stepMs === -600)!;
    expect(again.seq).toBeGreaterThan(back.seq);
  });
});
