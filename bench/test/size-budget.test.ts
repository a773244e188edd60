import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { judge } from "../src/size/check.ts";
import { SIZE_ENTRIES } from "../src/size/entries.ts";
import { measureEntry } from "../src/size/measure.ts";

const root = resolve(import.meta.dirname, "../..");

describe("check:sizes", () => {
  it("fails an entry over its budget and passes one within it", async () => {
    const entry = SIZE_ENTRIES[0]!;
    const measured = await measureEntry(entry, root);
    expect(measured.gzipped).toBeGreaterThan(1024);
    const within = judge([measured], [{ ...entry, budget: measured.gzipped }]);
    expect(within[0]!.over).toBe(false);
    const over = judge([measured], [{ ...entry, budget: measured.gzipped - 1 }]);
    expect(over[0]!.over).toBe(true);
  });
});
