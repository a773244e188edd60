import { describe, expect, it } from "vitest";
import { claimDelayMs } from "../src/wait/pushed-grant.ts";

// docs/performance.md, "The deferred claim": the claim waits a third of what is left of the
// grant, leaves at least twice the room a waiter needs to enter on a message (three round trips
// and 20 ms), and goes at once for a lease asked shorter than what is left.
describe("claimDelayMs: when a pushed grant's claim goes", () => {
  it("waits a third of what is left of the grant", () => {
    expect(claimDelayMs(1_800, 5)).toBe(600);
  });
  it("leaves twice the room to enter (3 round trips + 20 ms) when a third would leave less", () => {
    // 200 ms left, 25 ms round trips: the room is 95 ms, twice that 190, so 10 ms of wait
    expect(claimDelayMs(200, 25)).toBe(10);
    expect(claimDelayMs(150, 25)).toBe(0);
  });
  it("claims at once for a lease asked shorter than what is left of the grant", () => {
    expect(claimDelayMs(1_800, 5, 1_000)).toBe(0);
    expect(claimDelayMs(1_800, 5, 30_000)).toBe(600);
  });
});
