import { keyPrefix } from "@edgelock/testkit";
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker, { observed } from "./fixtures/worker.ts";
import { delay, eventually, keeper, probe } from "./workerd/support.ts";

describe.concurrent("hand-over from waitUntil to the Durable Object keeper", () => {
  it("hands the lease to the Durable Object keeper before the waitUntil budget ends; the DO keeps it on", async () => {
    const prefix = keyPrefix();
    const ctx = createExecutionContext();
    const url = `http://worker/?name=ho-1&prefix=${prefix}&leaseMs=600&budgetMs=1500&handoffMaxHoldMs=10000&keeperLeaseMs=600`;
    const response = await worker.fetch(new Request(url), env as never, ctx);
    const { fence, lease } = (await response.json()) as {
      fence: number;
      lease: import("@edgelock/core").SerializedLease;
    };
    const seen = observed.get("ho-1")!;
    await waitOnExecutionContext(ctx); // the invocation's keeping is over (budget spent)
    const handedOff = seen.keeper.find((e) => e.type === "handed-off");
    expect(handedOff).toMatchObject({ type: "handed-off", status: { state: "kept", fence } });
    const localRenewals = seen.events.filter((e) => e.type === "renewed").length;
    expect(localRenewals).toBeGreaterThanOrEqual(4);

    await delay(2_000); // three more leases with nobody in the Worker renewing
    const lock = probe(prefix).lock("ho-1");
    expect(await lock.isLocked()).toBe(true);
    // The Worker can no longer confirm the lease: its signal ended, saying where the lease went.
    expect(seen.events.find((e) => e.type === "lost")).toMatchObject({ reason: "taken-over" });
    const status = await keeper().status(lease);
    expect(status).toMatchObject({ state: "kept", fence });
    expect(status.renewals).toBeGreaterThanOrEqual(8);
    console.info(
      `[hand-over] waitUntil: ${localRenewals} renewals in 1500 ms; then DO: ${status.renewals} renewals in ~2000 ms`,
    );
    expect(await keeper().release(lease)).toMatchObject({ state: "released" });
    expect(await lock.isLocked()).toBe(false);
  });

  it("a release in the Worker after the hand-over stops the Durable Object keeper", async () => {
    const prefix = keyPrefix();
    const ctx = createExecutionContext();
    const url = `http://worker/?name=ho-2&prefix=${prefix}&leaseMs=600&budgetMs=3000&marginMs=2000&handoffMaxHoldMs=10000&keeperLeaseMs=600`;
    const response = await worker.fetch(new Request(url), env as never, ctx);
    const { lease } = (await response.json()) as {
      lease: import("@edgelock/core").SerializedLease;
    };
    const seen = observed.get("ho-2")!;
    await eventually(() => seen.keeper.some((e) => e.type === "handed-off"), 2_000, "handed off");
    await seen.held.release();
    await waitOnExecutionContext(ctx);
    expect(seen.keeper.map((e) => e.type)).toEqual(["handed-off", "release-forwarded"]);
    await eventually(
      async () => (await keeper().status(lease)).state !== "kept",
      1_000,
      "keeper stopped",
    );
    const renewals = (await keeper().status(lease)).renewals;
    await delay(400);
    expect((await keeper().status(lease)).renewals).toBe(renewals);
    expect(await probe(prefix).lock("ho-2").isLocked()).toBe(false);
  });
});
