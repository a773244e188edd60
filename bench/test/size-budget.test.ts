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
    for (const name of ["Lock-only", "Lock + waitUntil", "Lock + hono", "createClient"]) {
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

  // The default entries offer push; the polling one must ship none of its code (issue 14).
  const PUSH_FILES = [
    "core/src/push-kit.ts",
    "core/src/backend/rest-streams.ts",
    "core/src/backend/sse.ts",
    "core/src/backend/push-refused.ts",
    "core/src/backend/push-refusal-memory.ts",
    "core/src/wait/push-stream.ts",
    "core/src/wait/shared-grant-stream.ts",
    "core/src/wait/pushed-grant.ts",
    "core/src/lock/push-grant.ts",
  ];

  it("the polling entry's Worker ships no push code; the Lock entry's ships it", async () => {
    const polling = await measureEntry(entry("Lock-only entry, polling"), root);
    expect(polling.files).toContain("core/src/lock/acquire.ts");
    expect(polling.files).toContain("core/src/wait/wait-loop.ts");
    for (const file of PUSH_FILES) expect(polling.files).not.toContain(file);
    const pushing = await measureEntry(entry("Lock-only entry (@edgelock/core/lock)"), root);
    for (const file of PUSH_FILES) expect(pushing.files).toContain(file);
    expect(polling.gzipped).toBeLessThan(pushing.gzipped);
  });
});
