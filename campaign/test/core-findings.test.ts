import { createClient, LeaseLostError, type HeldLock, type HeldMultiLock } from "@edgelock/core";
import { startStack, type Stack } from "@edgelock/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Findings of the fault campaign, each reduced to a minimal test.

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
  // Every answer arrives at least 20 ms after the command ran.
  await stack.faults.add({ kind: "latency", ms: 40 });
});
afterAll(async () => {
  await stack.close();
});

const client = () =>
  createClient({
    redis: { url: stack.rest.url, token: stack.rest.token },
    prefix: `k${Math.random().toString(36).slice(2)}`,
  });

describe("a grant whose lease ran out before its answer arrived", () => {
  // Found by the campaign (short fixed leases under latency, or an acquire retried for longer
  // than its lease): the hold's LeaseState lost the lease inside the LockHoldState constructor, whose
  // onEnd callback then read `hold` before `const hold = new LockHoldState(…)` had assigned it, and
  // acquire() threw ReferenceError ("Cannot access 'hold' before initialization") instead of
  // returning a hold whose signal says it is lost. Fixed in lock/acquire.ts and
  // multi-lock/acquire.ts (the callback defers its bookkeeping to a microtask).
  it("Lock: acquire returns a hold whose signal has already aborted (no ReferenceError)", async () => {
    const held: HeldLock = await client().lock("late").acquire({ leaseMs: 5 });
    expect(held.signal.aborted).toBe(true);
    expect(held.signal.reason).toBeInstanceOf(LeaseLostError);
  });

  it("MultiLock: the same for a multi-lock grant", async () => {
    const held: HeldMultiLock = await client()
      .multiLock(["late-a", "late-b"])
      .acquire({ leaseMs: 5 });
    expect(held.signal.aborted).toBe(true);
    expect(held.signal.reason).toBeInstanceOf(LeaseLostError);
  });
});
