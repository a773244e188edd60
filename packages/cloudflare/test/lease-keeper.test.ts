import { keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import { delay, eventually, fixedLease, keeper, keeperStub, probe } from "./workerd/support.ts";
import { runDurableObjectAlarm } from "cloudflare:test";

// Short leases (600 ms, renewed every 200 ms) so that five lease periods take three seconds.
describe.concurrent("LeaseKeeper (Durable Object)", () => {
  it("keeps a handed-over lease over five lease periods and stops at release", async () => {
    const prefix = keyPrefix();
    const { held, lease } = await fixedLease(prefix, "kept");
    const first = await keeper().keep(lease, { maxHoldMs: 60_000, leaseMs: 600 });
    expect(first).toMatchObject({ state: "kept", fence: held.fence, renewals: 1 });
    await delay(3_200);
    const lock = probe(prefix).lock("kept");
    expect(await lock.isLocked()).toBe(true);
    const during = await keeper().status(lease);
    expect(during.state).toBe("kept");
    expect(during.renewals).toBeGreaterThanOrEqual(12);
    console.info(`[DO keeper] lease 600 ms over 3200 ms: ${during.renewals} renewals`);
    const released = await keeper().release(lease);
    expect(released.state).toBe("released");
    expect(await lock.isLocked()).toBe(false);
    expect(await runDurableObjectAlarm(await keeperStub(lease))).toBe(false); // no alarm left
    await delay(300);
    expect((await keeper().status(lease)).renewals).toBe(released.renewals);
  });

  it("a repeated hand-over changes nothing", async () => {
    const prefix = keyPrefix();
    const { lease } = await fixedLease(prefix, "twice");
    const a = await keeper().keep(lease, { maxHoldMs: 60_000, leaseMs: 600 });
    const b = await keeper().keep(lease, { maxHoldMs: 1, leaseMs: 3 });
    expect(b).toMatchObject({ state: "kept", renewals: a.renewals });
    expect((await keeper().release(lease)).state).toBe("released");
  });

  it("stops at maxHoldMs: the lease ends then, and the holder is told why", async () => {
    // A 1.2 s lease (renewed every 400 ms): on a loaded CI machine an alarm 400 ms late made a
    // 600 ms lease run out before its renewal, and the keeper said, truly, "lost", not "max-hold".
    const prefix = keyPrefix();
    const { lease } = await fixedLease(prefix, "max-hold", 1_200);
    await keeper().keep(lease, { maxHoldMs: 3_000, leaseMs: 1_200 });
    const lock = probe(prefix).lock("max-hold");
    await delay(2_000); // past the holder's own 1.2 s lease: only the keeper holds it now
    expect(await lock.isLocked()).toBe(true);
    await eventually(async () => !(await lock.isLocked()), 2_500, "lock free after maxHoldMs");
    await eventually(
      async () => (await keeper().status(lease)).state !== "kept",
      1_000,
      "keeper stopped",
    );
    expect(await keeper().heartbeat(lease)).toMatchObject({ state: "ended", reason: "max-hold" });
  });

  it("stops after a missed heartbeat and lets the lease run out", async () => {
    const prefix = keyPrefix();
    const { lease } = await fixedLease(prefix, "heartbeat", 1_200); // 1.2 s: see max-hold above
    await keeper().keep(lease, { maxHoldMs: 60_000, heartbeatMs: 500, leaseMs: 1_200 });
    for (let i = 0; i < 6; i++) {
      await delay(300);
      expect((await keeper().heartbeat(lease)).state).toBe("kept");
    }
    const lock = probe(prefix).lock("heartbeat");
    expect(await lock.isLocked()).toBe(true); // 1.8 s, past the holder's lease: kept by heartbeats
    await eventually(
      async () => (await keeper().status(lease)).state !== "kept",
      1_500,
      "keeper stopped",
    );
    expect(await keeper().heartbeat(lease)).toMatchObject({
      state: "ended",
      reason: "missed-heartbeat",
    });
    await eventually(async () => !(await lock.isLocked()), 2_500, "lease ran out");
  });

  it("a hold deleted behind its back is marked lost, and the next heartbeat says so", async () => {
    const prefix = keyPrefix();
    const { lease } = await fixedLease(prefix, "stolen");
    await keeper().keep(lease, { maxHoldMs: 60_000, leaseMs: 600 });
    await probe(prefix).lock("stolen").forceUnlock();
    await eventually(
      async () => (await keeper().status(lease)).state !== "kept",
      1_000,
      "keeper noticed",
    );
    expect(await keeper().heartbeat(lease)).toMatchObject({ state: "lost", reason: "gone" });
    expect((await keeper().release(lease)).state).toBe("lost");
  });

  it("a lease that is already gone at hand-over is reported lost at once", async () => {
    const prefix = keyPrefix();
    const { held, lease } = await fixedLease(prefix, "late");
    await held.release();
    expect(await keeper().keep(lease, { maxHoldMs: 60_000, leaseMs: 600 })).toMatchObject({
      state: "lost",
      reason: "gone",
      renewals: 0,
    });
  });
});
