import { keyPrefix } from "@edgelock/testkit";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  addFault,
  delay,
  eventually,
  fixedLease,
  keeper,
  keeperStub,
  probe,
} from "./workerd/support.ts";

// Alarms are at-least-once and may be late: these drive the object's alarm by hand.
describe.concurrent("LeaseKeeper alarms", () => {
  it("a duplicated alarm renews nothing twice and keeps the schedule", async () => {
    const prefix = keyPrefix();
    const { lease } = await fixedLease(prefix, "dup", 3_000);
    const stub = await keeperStub(lease);
    await keeper().keep(lease, { maxHoldMs: 60_000, leaseMs: 3_000 }); // renew every 1 s
    const before = await keeper().status(lease);
    // Run the scheduled alarm now (early), twice in a row: nothing is due, so nothing is renewed.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const after = await keeper().status(lease);
    expect(after).toMatchObject({
      state: "kept",
      renewals: before.renewals,
      nextAlarmAt: before.nextAlarmAt,
    });
    await eventually(
      async () => (await keeper().status(lease)).renewals > before.renewals,
      2_000,
      "the real alarm renewed",
    );
    expect(await probe(prefix).lock("dup").isLocked()).toBe(true);
    await keeper().release(lease);
  });

  it("a late alarm renews at once and the lease survives", async () => {
    const prefix = keyPrefix();
    const { lease } = await fixedLease(prefix, "late", 1_500);
    const stub = await keeperStub(lease);
    await keeper().keep(lease, { maxHoldMs: 60_000, leaseMs: 1_500 }); // due every 500 ms
    // Push the alarm far out, as a failover would, then fire it 1 s late (lease still valid).
    await runInDurableObject(stub, (_, state) => state.storage.setAlarm(Date.now() + 60_000));
    const before = await keeper().status(lease);
    await delay(1_000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const after = await keeper().status(lease);
    expect(after.state).toBe("kept");
    expect(after.renewals).toBe(before.renewals + 1);
    expect(after.nextAlarmAt! - Date.now()).toBeLessThanOrEqual(500); // back on the lease/3 schedule
    expect(await probe(prefix).lock("late").isLocked()).toBe(true);
    await keeper().release(lease);
  });

  it("an alarm after the end does nothing (stale alarm)", async () => {
    const prefix = keyPrefix();
    const { lease } = await fixedLease(prefix, "stale");
    const stub = await keeperStub(lease);
    await keeper().keep(lease, { maxHoldMs: 60_000, leaseMs: 600 });
    const released = await keeper().release(lease);
    await runInDurableObject(stub, (_, state) => state.storage.setAlarm(Date.now() + 60_000));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await keeper().status(lease)).toMatchObject({
      state: "released",
      renewals: released.renewals,
    });
    expect(await runDurableObjectAlarm(stub)).toBe(false);
  });

  it("a release racing a renewal is reported as released, not lost", async () => {
    const prefix = keyPrefix();
    const { lease } = await fixedLease(prefix, "race");
    const stub = await keeperStub(lease);
    await keeper().keep(lease, { maxHoldMs: 60_000, leaseMs: 600 });
    for (let i = 0; i < 5; i++) {
      await delay(150);
      // Fire the alarm and the release together; whichever reaches Redis first, the verdict is "released".
      const [, status] = await Promise.all([
        runDurableObjectAlarm(stub),
        i === 4 ? keeper().release(lease) : keeper().status(lease),
      ]);
      if (i === 4) expect(status.state).toBe("released");
    }
    await delay(300);
    expect((await keeper().status(lease)).state).toBe("released");
    expect(await probe(prefix).lock("race").isLocked()).toBe(false);
  });

  it("renewals that keep failing mark the lease lost before it runs out, and the next heartbeat says so", async ({
    skip,
  }) => {
    const { env } = await import("cloudflare:test");
    if (!env.REST_FAULTS) skip("the rest-server has no fault injection (external Upstash)");
    const prefix = keyPrefix();
    const { lease } = await fixedLease(prefix, "failing");
    await keeper().keep(lease, { maxHoldMs: 60_000, leaseMs: 600 });
    // Every request naming this owner now fails with a 502 before running.
    await addFault({ kind: "fail-before", times: 1_000, match: lease.owner });
    await eventually(
      async () => (await keeper().status(lease)).state !== "kept",
      2_000,
      "keeper gave up",
    );
    expect(await keeper().heartbeat(lease)).toMatchObject({
      state: "lost",
      reason: "renew-failed",
    });
  });
});
