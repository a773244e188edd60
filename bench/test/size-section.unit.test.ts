import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SizeReport } from "../src/size/main.ts";
import { writeSizeSection } from "../src/size/write-section.ts";

const report: SizeReport = {
  entry: "Lock-only entry (@edgelock/core/lock)",
  minified: 60_000,
  gzipped: 20_000,
  modules: [{ module: "core/lock", minified: 10_000 }],
  files: ["core/src/lock/lock.ts"],
  budget: 21_000,
  goal: 10_240,
};

describe("size --write", () => {
  it("rewrites the bundle-size section from the measured Workers and leaves every other section as it was", () => {
    const dir = mkdtempSync(join(tmpdir(), "edgelock-size-section-"));
    try {
      const file = join(dir, "BENCHMARKS.md");
      writeFileSync(
        file,
        "# Bench\n\n## Sweep\n\nkept\n\n## Bundle size (old)\n\n| stale | row |\n\n## Libraries and settings\n\nkept too\n",
      );
      writeSizeSection(file, [report]);
      const text = readFileSync(file, "utf8");
      expect(text.startsWith("# Bench\n\n## Sweep\n\nkept\n\n## Bundle size (esbuild")).toBe(true);
      expect(text).toContain("| Lock-only entry (@edgelock/core/lock) | 58.6 KB | **19.5 KB** |");
      expect(text).toContain("| core/lock | 9.8 KB (~3.3 KB gz) |");
      expect(text).not.toContain("stale");
      expect(text.endsWith("\n## Libraries and settings\n\nkept too\n")).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a file without the section rather than appending one", () => {
    const dir = mkdtempSync(join(tmpdir(), "edgelock-size-section-"));
    try {
      const file = join(dir, "BENCHMARKS.md");
      writeFileSync(file, "# Bench\n\n## Sweep\n");
      expect(() => writeSizeSection(file, [report])).toThrow(/no bundle-size section/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
