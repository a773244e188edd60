import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { installClockSkew, offsetAt, runSkewed } from "../src/world/clock-skew.ts";

const CORE_SRC = new URL("../../packages/core/src/", import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sourceFiles(join(dir, e.name))
      : e.name.endsWith(".ts")
        ? [join(dir, e.name)]
        : [],
  );
}

describe("client clocks", () => {
  // The campaign skews every worker's Date.now within the clients' clockErrorMs and expects no
  // effect. That holds only if the core reads the wall clock in two places: the `wallClock`
  // option's default (the engine's server-time estimate before the first reply, bounded by
  // clockErrorMs: docs/protocol.md) and a serialised lease's expiresAt hint.
  it("the core reads the wall clock only through the wallClock option and for expiresAt", () => {
    const uses = sourceFiles(CORE_SRC).flatMap((file) => {
      const lines = readFileSync(file, "utf8").split("\n");
      return lines
        .map((line, i) => ({
          at: `${file.slice(CORE_SRC.length)}:${i + 1}`,
          line: line.trim(),
          near: lines.slice(Math.max(0, i - 3), i + 1).join("\n"),
        }))
        .filter(
          ({ line }) =>
            /Date\.now\b|new Date\(/.test(line) && !line.startsWith("*") && !line.startsWith("//"),
        );
    });
    expect(uses.length).toBeGreaterThan(0);
    expect(
      uses
        .filter(({ near }) => !near.includes("expiresAt") && !/wallClock/.test(near))
        .map(({ at, line }) => `${at}: ${line}`),
    ).toEqual([]);
  });

  it("a worker's skew moves its Date.now and nobody else's", () => {
    const uninstall = installClockSkew();
    try {
      const skewed = runSkewed({ ms: 10_000 }, () => Date.now());
      const plain = Date.now();
      expect(skewed - plain).toBeGreaterThanOrEqual(9_000);
    } finally {
      uninstall();
    }
  });

  it("a drifting clock moves by its rate from its first reading, and never past its bound", () => {
    const drift = { msPerSecond: 100, since: 1_000_000, boundMs: 2_000 };
    expect(offsetAt({ ms: -500, drift }, 1_000_000)).toBe(-500);
    expect(offsetAt({ ms: -500, drift }, 1_010_000)).toBe(500);
    expect(offsetAt({ ms: -500, drift }, 1_100_000)).toBe(2_000);
    expect(offsetAt({ ms: 0, drift: { ...drift, msPerSecond: -100 } }, 1_100_000)).toBe(-2_000);
    const uninstall = installClockSkew();
    try {
      const skew = {
        ms: 0,
        drift: { msPerSecond: 1_000, since: Date.now() - 3_000, boundMs: 5_000 },
      };
      const ahead = runSkewed(skew, () => Date.now()) - Date.now();
      expect(ahead).toBeGreaterThanOrEqual(2_900);
      expect(ahead).toBeLessThanOrEqual(3_100);
    } finally {
      uninstall();
    }
  });
});
