import { LeaseLostError } from "@edgelock/core";
import { keyPrefix } from "@edgelock/testkit";
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker, { observed } from "./fixtures/worker.ts";
import { aborted, delay, probe } from "./workerd/support.ts";

describe.concurrent("waitUntilKeeper in a Worker", () => {
  it("a Worker returns at once and waitUntil keeps its lease over five leases, then lets it run out with held.signal aborted", async () => {
    const prefix = keyPrefix();
    const ctx = createExecutionContext();
    const response = await worker.fetch(
      new Request(`http://worker/?name=wu-1&prefix=${prefix}&leaseMs=1200&budgetMs=6000`),
      env as never,
      ctx,
    );
    expect(response.status).toBe(200);
    const { fence } = (await response.json()) as { fence: number };
    const seen = observed.get("wu-1")!;
    const lock = probe(prefix).lock("wu-1");

    // 1 200 ms leases (600 ms ones were lost once to a slow renewal in a loaded full run).
    await delay(5_000); // four leases after the response: only the keeper can have kept it
    expect(await lock.isLocked()).toBe(true);
    expect(seen.held.signal.aborted).toBe(false);

    await waitOnExecutionContext(ctx); // the loop ends when its budget is spent
    expect(seen.keeper.map((e) => e.type)).toEqual(["budget-exhausted"]);
    const reason = await aborted(seen.held.signal, 2_000);
    expect(reason).toBeInstanceOf(LeaseLostError);
    expect((reason as LeaseLostError).reason).toBe("deadline");
    // The holder gives up first (its deadline counts from when the last renewal was sent, or
    // from a renewal still in doubt); the server lets go within one lease after that.
    const abortedAt = Date.now();
    while ((await lock.isLocked()) && Date.now() - abortedAt < 1_200 + 400) await delay(20);
    expect(await lock.isLocked()).toBe(false);
    const renewals = seen.events.filter((e) => e.type === "renewed").length;
    expect(renewals).toBeGreaterThanOrEqual(10); // ~6000 ms / (1200 / 3)
    console.info(
      `[waitUntil keeper] lease 1200 ms, budget 6000 ms: ${renewals} renewals, fence ${fence}`,
    );
  });

  it("stops at release: no renewal after it, and the waitUntil promise settles", async () => {
    const prefix = keyPrefix();
    const ctx = createExecutionContext();
    await worker.fetch(
      new Request(`http://worker/?name=wu-2&prefix=${prefix}&leaseMs=600&budgetMs=10000`),
      env as never,
      ctx,
    );
    const seen = observed.get("wu-2")!;
    await delay(700);
    await seen.held.release();
    const renewals = seen.events.filter((e) => e.type === "renewed").length;
    expect(renewals).toBeGreaterThanOrEqual(2);
    await waitOnExecutionContext(ctx); // settles long before the 10 s budget
    await delay(450);
    expect(seen.events.filter((e) => e.type === "renewed").length).toBe(renewals);
    expect(seen.held.signal.aborted).toBe(false);
    expect(seen.keeper).toEqual([]);
    expect(await probe(prefix).lock("wu-2").isLocked()).toBe(false);
  });
});
