import { describe, expect, it } from "vitest";
import { IntervalOverlapError, IntervalRecorder } from "../src/index.ts";

describe("IntervalRecorder", () => {
  it("reports a true overlap between two owners, with both sections", () => {
    const recorder = new IntervalRecorder();
    const a = recorder.enter("a", 1);
    const b = recorder.enter("b", 2);
    a.exit();
    b.exit();
    const overlaps = recorder.overlaps();
    expect(overlaps).toHaveLength(1);
    expect(overlaps[0]!.first).toMatchObject({ owner: "a", fence: 1, order: 0 });
    expect(overlaps[0]!.second).toMatchObject({ owner: "b", fence: 2, order: 1 });
    expect(() => recorder.assertNoOverlap()).toThrow(IntervalOverlapError);
    expect(() => recorder.assertNoOverlap()).toThrow(/#0 a fence 1 .* overlaps #1 b fence 2/);
  });

  it("does not report back-to-back sections, even with equal clock readings", () => {
    const recorder = new IntervalRecorder();
    for (let i = 0; i < 100; i++) recorder.enter(`w${i % 3}`, i + 1).exit();
    expect(recorder.overlaps()).toEqual([]);
    expect(() => recorder.assertNoOverlap()).not.toThrow();
    expect(recorder.maxConcurrent()).toBe(1);
    expect(recorder.intervals()).toHaveLength(100);
  });

  it("counts a section still open as lasting until now", () => {
    const recorder = new IntervalRecorder();
    recorder.enter("a");
    recorder.enter("b").exit();
    expect(recorder.overlaps()).toHaveLength(1);
    expect(recorder.intervals()[0]).not.toHaveProperty("exitedAt");
  });

  it("lets one owner's sections nest (re-entry) and measures concurrency", () => {
    const recorder = new IntervalRecorder();
    const outer = recorder.enter("a", 1);
    recorder.enter("a", 1).exit();
    outer.exit();
    expect(recorder.overlaps()).toEqual([]);
    expect(recorder.maxConcurrent()).toBe(2);
  });

  it("refuses a second exit of one section", () => {
    const section = new IntervalRecorder().enter("a");
    section.exit();
    expect(() => section.exit()).toThrow(/exited twice/);
  });

  it("checks that fences strictly increase in grant order, skipping sections without one", () => {
    const ok = new IntervalRecorder();
    for (const fence of [1, undefined, 3, 7]) ok.enter("x", fence).exit();
    expect(ok.fencesIncreasingInGrantOrder()).toBe(true);

    const equal = new IntervalRecorder();
    for (const fence of [1, 2, 2]) equal.enter("x", fence).exit();
    expect(equal.fencesIncreasingInGrantOrder()).toBe(false);

    const backwards = new IntervalRecorder();
    for (const fence of [5, 3]) backwards.enter("x", fence).exit();
    expect(backwards.fencesIncreasingInGrantOrder()).toBe(false);
  });
});
