import {
  harness,
  keyPrefix,
  startPushRefusingProxy,
  type PushRefusingProxy,
} from "@edgelock/testkit";
import { afterEach, describe, expect, it } from "vitest";
import type { ClientOptions } from "../src/client-options.ts";
import { createLockClient as pushingClient, type LockClient } from "../src/lock-entry.ts";
import {
  createLockClient as pollingClient,
  InvalidArgumentError,
} from "../src/lock-polling-entry.ts";

// `@edgelock/core/lock-polling` is `@edgelock/core/lock` without push: its waiters poll and never
// open a stream (bench/test/size-budget.test.ts checks that its Worker ships no push code). Seen
// through a proxy that forwards everything to the rest-server and counts stream requests.

const proxies: PushRefusingProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

const token = () => harness().restToken;

/** A holder, then three waiters of one client (two behind another: they would listen), in turn. */
async function contendedRound(make: (options: ClientOptions) => LockClient) {
  const proxy = await startPushRefusingProxy(harness().restUrl, "forward");
  proxies.push(proxy);
  const prefix = keyPrefix();
  const direct = pushingClient({ redis: { url: harness().restUrl, token: token() }, prefix });
  const client = make({ redis: { url: proxy.url, token: token() }, prefix });
  const holder = await direct.lock("polled").acquire({ leaseMs: 20_000 });
  const order: number[] = [];
  const waiters = [0, 1, 2].map(async (i) => {
    await new Promise((resolve) => setTimeout(resolve, 50 * i)); // queued in this order
    const held = await client.lock("polled").acquire({ waitMs: 10_000, leaseMs: 5_000 });
    order.push(i);
    await held.release();
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
  await holder.release();
  await Promise.all(waiters);
  await client.settled();
  return { proxy, order };
}

describe("@edgelock/core/lock-polling: the Lock-only client without push", () => {
  it("its waiters get the lock in their queue's order without a single stream request", async () => {
    const { proxy, order } = await contendedRound(pollingClient);
    expect(order).toEqual([0, 1, 2]);
    expect(proxy.forwarded + proxy.refused).toBe(0);
    expect(proxy.commands).toBeGreaterThan(0);
  });

  it("the Lock entry's client, on the same round, listens on a stream (the proxy sees it)", async () => {
    const { proxy, order } = await contendedRound(pushingClient);
    expect(order).toEqual([0, 1, 2]);
    expect(proxy.forwarded).toBeGreaterThan(0);
  });

  it("validates options as the Lock entry does, push's included", () => {
    expect(() => pollingClient({} as never)).toThrow(InvalidArgumentError);
    expect(() => pollingClient({ redis: { url: "redis://x", token: "t" } })).toThrow(/redis\.url/);
    expect(() =>
      pollingClient({
        redis: { url: harness().restUrl, token: token() },
        push: { refusedBackoffMs: -1 },
      }),
    ).toThrow(/options\.push\.refusedBackoffMs/);
  });
});
