import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { judge } from "../src/size/check.ts";
import { SIZE_ENTRIES } from "../src/size/entries.ts";
import { measureEntry } from "../src/size/measure.ts";

const root = resolve(import.meta.dirname, "../..");
const entry = (name: string) => SIZE_ENTRIES.find((e) => e.name.startsWith(name))!;

describe("check:sizes", () => {
  it("fails an entry over its budget and passes one within it", async () => {
    const lockOnly = entry("Lock-only");
    const measured = await measureEntry(lockOnly, root);
    expect(measured.gzipped).toBeGreaterThan(1024);
    expect(judge([measured], [{ ...lockOnly, budget: measured.gzipped }])[0]!.over).toBe(false);
    expect(judge([measured], [{ ...lockOnly, budget: measured.gzipped - 1 }])[0]!.over).toBe(true);
  });

  it("a Worker passing { url, token } ships no TCP, cluster or other primitives' code", async () => {
    for (const name of ["Lock-only", "Lock + waitUntil", "createClient"]) {
      const { files } = await measureEntry(entry(name), root);
      expect(files).toContain("core/src/backend/upstash-rest.ts");
      expect(files).toContain("core/src/backend/tcp-backends.edge.ts");
      for (const tcp of [
        "core/src/backend/node-redis.ts",
        "core/src/backend/node-redis-cluster.ts",
        "core/src/backend/tcp-backends.ts",
      ])
        expect(files).not.toContain(tcp);
      expect(files.some((f) => f.startsWith("redis-cluster-routing/"))).toBe(false);
      if (name !== "createClient")
        for (const other of ["semaphore", "permit-semaphore", "fair-lock", "multi-lock", "latch"])
          expect(files.some((f) => f.startsWith(`core/src/${other}/`))).toBe(false);
    }
  });
});
