import { describe, expect, it } from "vitest";
import { quorumDeadline } from "../src/quorum/quorum-validity.ts";

// The quorum stands while a majority may still hold it: the M-th latest deadline of N, which is
// the (N − M + 1)-th earliest (the same for an odd N, not for an even one).
describe("quorumDeadline", () => {
  it("5 databases, majority 3: the 3rd latest", () => {
    expect(quorumDeadline([50, 10, 40, 20, 30], 3)).toBe(30);
  });

  it("4 databases, majority 3: the 3rd latest, i.e. the 2nd earliest (after it only 2 remain)", () => {
    expect(quorumDeadline([10, 20, 30, 40], 3)).toBe(20);
  });

  it("databases out of the hold count as -Infinity; fewer than a majority left: -Infinity", () => {
    expect(quorumDeadline([-Infinity, 20, 30, -Infinity, 40], 3)).toBe(20);
    expect(quorumDeadline([-Infinity, -Infinity, 30, -Infinity, 40], 3)).toBe(-Infinity);
  });
});
