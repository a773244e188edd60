import { createClient, LeaseLostError, type LockEvent } from "@edgelock/core";
import { harness, keyPrefix } from "@edgelock/testkit";
import { Redis } from "@upstash/redis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  startKeeper,
  type RunningKeeper,
} from "../../../workers/lease-keeper/test/start-keeper.ts";
import { keeperFromEnv, redisFromEnv, vercelKeeper, type KeeperEvent } from "../src/index.ts";
import { simulateVercel } from "./vercel-context.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function setup(prefix: string, keeper: ReturnType<typeof vercelKeeper>, leaseMs = 600) {
  const events: LockEvent[] = [];
  const h = harness();
  const client = createClient({
    redis: new Redis({ url: h.restUrl, token: h.restToken }),
    prefix,
    leaseMs,
    keeper,
    onEvent: (e) => events.push(e),
  });
  return { client, renewals: () => events.filter((e) => e.type === "renewed").length };
}

describe("vercelKeeper", () => {
  let vercel: ReturnType<typeof simulateVercel> | undefined;
  afterEach(() => vercel?.restore());

  it("renews under waitUntil until the invocation's deadline, then lets the lease run out with held.signal aborted", async () => {
    vercel = simulateVercel(3_000);
    const keeperEvents: KeeperEvent[] = [];
    // 900 ms leases: room for a loaded machine's pauses between renewals (every 300 ms).
    const { client, renewals } = setup(
      keyPrefix(),
      vercelKeeper({ marginMs: 300, onEvent: (e) => keeperEvents.push(e) }),
      900,
    );
    const held = await client.lock("job").acquire();
    expect(vercel.pending).toHaveLength(1); // the renewal loop was registered with waitUntil
    await vercel.settled(); // ends before the deadline
    expect(keeperEvents.map((e) => e.type)).toEqual(["budget-exhausted"]);
    expect(renewals()).toBeGreaterThanOrEqual(7); // ~2700 ms / 300 ms
    console.info(`[vercel keeper] lease 900 ms, deadline 3000 ms: ${renewals()} renewals`);
    await sleep(1_000);
    expect(held.signal.aborted).toBe(true);
    expect((held.signal.reason as LeaseLostError).reason).toBe("deadline");
    expect(await client.lock("job").isLocked()).toBe(false);
  });

  it("without a deadline from the runtime, budgets fallbackBudgetMs from the acquire", async () => {
    const pending: Promise<unknown>[] = [];
    const keeperEvents: KeeperEvent[] = [];
    const keeper = vercelKeeper({
      waitUntil: (p) => void pending.push(p),
      getDeadline: () => undefined,
      fallbackBudgetMs: 800,
      marginMs: 100,
      onEvent: (e) => keeperEvents.push(e),
    });
    const { client, renewals } = setup(keyPrefix(), keeper);
    const held = await client.lock("job").acquire();
    await Promise.all(pending);
    expect(keeperEvents.map((e) => e.type)).toEqual(["budget-exhausted"]);
    expect(renewals()).toBeGreaterThanOrEqual(2);
    await held.release().catch(() => undefined);
  });

  describe("hand-over to the Durable Object keeper over HTTP", () => {
    let keeperWorker: RunningKeeper;
    beforeAll(async () => {
      keeperWorker = await startKeeper({ url: harness().restUrl, token: harness().restToken });
    }, 60_000);
    afterAll(() => keeperWorker?.close());

    it("hands the lease over before the deadline; the keeper keeps it on after the function is gone", async () => {
      vercel = simulateVercel(1_500);
      const prefix = keyPrefix();
      const doKeeper = keeperFromEnv({
        EDGELOCK_KEEPER_URL: keeperWorker.url,
        EDGELOCK_KEEPER_SECRET: keeperWorker.secret,
      });
      const keeperEvents: KeeperEvent[] = [];
      const keeper = vercelKeeper({
        marginMs: 300,
        // 1.5 s keeper leases: the object's requests time out at a third of the lease, and 200 ms
        // (a 600 ms lease's) was too short for a loaded CI machine (its release ended "unknown").
        handoff: { keeper: doKeeper, maxHoldMs: 20_000, leaseMs: 1_500 },
        onEvent: (e) => keeperEvents.push(e),
      });
      const { client, renewals } = setup(prefix, keeper);
      const held = await client.lock("job").acquire();
      const lease = held.toJSON();
      await vercel.settled();
      expect(keeperEvents[0]).toMatchObject({
        type: "handed-off",
        status: { state: "kept", fence: held.fence },
      });
      await sleep(3_500); // past two of the keeper's leases, and past the function's own lease
      expect(await client.lock("job").isLocked()).toBe(true);
      const status = await doKeeper.release(lease);
      expect(status, JSON.stringify(status)).toMatchObject({ state: "released" });
      expect(status.renewals).toBeGreaterThanOrEqual(2);
      console.info(
        `[vercel → DO hand-over] ${renewals()} renewals in the function, then ${status.renewals} in the keeper`,
      );
      expect(await client.lock("job").isLocked()).toBe(false);
    });
  });
});

describe("fromEnv helpers", () => {
  it("name the missing variable and where to set it", () => {
    expect(() => keeperFromEnv({})).toThrow(/EDGELOCK_KEEPER_URL: is not set/);
    expect(() => keeperFromEnv({ EDGELOCK_KEEPER_URL: "https://k.example" })).toThrow(
      /EDGELOCK_KEEPER_SECRET: is not set/,
    );
    expect(() =>
      keeperFromEnv({ EDGELOCK_KEEPER_URL: "http://k.example", EDGELOCK_KEEPER_SECRET: "s" }),
    ).toThrow(/https/);
    expect(() => redisFromEnv({})).toThrow(
      /UPSTASH_REDIS_REST_URL: is not set.*Environment Variables/,
    );
    expect(() => redisFromEnv({ UPSTASH_REDIS_REST_URL: "https://x.upstash.io" })).toThrow(
      /UPSTASH_REDIS_REST_TOKEN: is not set/,
    );
    expect(
      redisFromEnv({
        UPSTASH_REDIS_REST_URL: "https://x.upstash.io",
        UPSTASH_REDIS_REST_TOKEN: "t",
      }),
    ).toEqual({ url: "https://x.upstash.io", token: "t" });
  });
});
