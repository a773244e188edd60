import { describe, expect, it } from "vitest";
import { Random } from "../src/random.ts";
import { pickFate, type Fate, type FateMix } from "../src/adversary/world/fates.ts";

const LOST: FateMix = { late: 0, duplicate: 0, lostResponse: 1, maxDelayMs: 0 };

function hangs(mix: FateMix, n: number): number {
  const random = new Random(7);
  let hung = 0;
  for (let i = 0; i < n; i++) {
    const fate: Fate = pickFate(random, mix);
    expect(fate.kind).toBe("lost-response");
    if (fate.kind === "lost-response" && fate.hang) hung++;
  }
  return hung;
}

describe("fates", () => {
  // The racing-extends world needs every lost response to hang a request timeout, so the answer
  // of the renewal that applied first reaches its holder last; other worlds keep half and half.
  it("a lost response hangs as often as lostResponseHangs says (default: half)", () => {
    expect(hangs({ ...LOST, lostResponseHangs: 1 }, 200)).toBe(200);
    expect(hangs({ ...LOST, lostResponseHangs: 0 }, 200)).toBe(0);
    const half = hangs(LOST, 1_000);
    expect(half).toBeGreaterThan(400);
    expect(half).toBeLessThan(600);
  });

  it("a congested call's copies run late within slowDelayMs, before any other fate", () => {
    const random = new Random(3);
    const mix: FateMix = { ...LOST, slowDelayMs: [150, 200] };
    for (let i = 0; i < 100; i++) {
      const fate = pickFate(random, mix, true);
      expect(fate.kind).toBe("late");
      if (fate.kind === "late") {
        expect(fate.delayMs).toBeGreaterThanOrEqual(150);
        expect(fate.delayMs).toBeLessThanOrEqual(200);
      }
    }
  });
});
