import {
  harness,
  keyPrefix,
  startPushRefusingProxy,
  type PushRefusingProxy,
} from "@edgelock/testkit";
import { afterEach, describe, expect, it } from "vitest";
import {
  createClient,
  DEFAULT_CLIENT_OPTIONS,
  InvalidArgumentError,
  type ClientOptions,
  type LockEvent,
} from "../src/index.ts";
import { LINGER_MS } from "../src/wait/shared-grant-stream.ts";
import { delay } from "./support.ts";

const WAITERS = 6;
const proxies: PushRefusingProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

async function proxy(answer: PushRefusingProxy["answer"]): Promise<PushRefusingProxy> {
  const p = await startPushRefusingProxy(harness().restUrl, answer);
  proxies.push(p);
  return p;
}

/** A client through the proxy, with its events. */
function clientVia(p: PushRefusingProxy, prefix: string, options: Partial<ClientOptions> = {}) {
  const events: LockEvent[] = [];
  const client = createClient({
    ...options,
    redis: { url: p.url, token: harness().restToken },
    prefix,
    onEvent: (e) => events.push(e),
  });
  return { client, events };
}

/**
 * One contended round: a holder (straight to the rest-server) holds the lock until all `WAITERS`
 * waiters of `waiting` have been told they are queued (several behind another, so they would
 * listen for their grant), then lets go; every waiter then gets the lock in turn, alone.
 */
async function contendedRound(
  waiting: ReturnType<typeof clientVia>,
  prefix: string,
  name: string,
): Promise<void> {
  const direct = createClient({
    redis: { url: harness().restUrl, token: harness().restToken },
    prefix,
  });
  const holder = await direct.lock(name).acquire({ leaseMs: 20_000 });
  const before = waiting.events.filter((e) => e.type === "waited").length;
  let inside = 0;
  let most = 0;
  const waiters = Array.from({ length: WAITERS }, async () => {
    const held = await waiting.client.lock(name).acquire({ waitMs: 20_000, leaseMs: 10_000 });
    inside++;
    most = Math.max(most, inside);
    await delay(5);
    inside--;
    await held.release();
  });
  const end = Date.now() + 10_000;
  while (waiting.events.filter((e) => e.type === "waited").length - before < WAITERS) {
    if (Date.now() > end) throw new Error("the waiters were never told they wait");
    await delay(10);
  }
  const behind = waiting.events.filter((e) => e.type === "waited" && e.position >= 2);
  expect(behind.length).toBeGreaterThan(0);
  await holder.release();
  await Promise.all(waiters);
  expect(most).toBe(1);
  await direct.settled();
}

describe("a backend that refuses push is not asked again for push.refusedBackoffMs", () => {
  it("a 404 on /subscribe: one refused attempt for every waiter of every wait within the back-off", async () => {
    const p = await proxy(404);
    const prefix = keyPrefix();
    const waiting = clientVia(p, prefix);
    for (let round = 0; round < 3; round++) await contendedRound(waiting, prefix, "refused-404");
    // Without the memory every queued waiter asked on every wait (up to two streams each).
    expect(p.refused).toBe(1);
    expect(p.forwarded).toBe(0);
    await waiting.client.settled();
  });

  it("an answer that is not an event stream (200 with JSON) counts as a refusal", async () => {
    const p = await proxy("json");
    const prefix = keyPrefix();
    const waiting = clientVia(p, prefix);
    for (let round = 0; round < 2; round++) await contendedRound(waiting, prefix, "refused-json");
    expect(p.refused).toBe(1);
    await waiting.client.settled();
  });

  it("a 405 is a refusal too; the memory is per client", async () => {
    const p = await proxy(405);
    const prefix = keyPrefix();
    const first = clientVia(p, prefix);
    const second = clientVia(p, prefix);
    await contendedRound(first, prefix, "refused-405");
    await contendedRound(first, prefix, "refused-405");
    expect(p.refused).toBe(1);
    await contendedRound(second, prefix, "refused-405");
    expect(p.refused).toBe(2);
    await first.client.settled();
    await second.client.settled();
  });

  it("asks again once per back-off, and a stream that goes live clears the memory", async () => {
    const backoffMs = 1_500;
    const p = await proxy(404);
    const prefix = keyPrefix();
    const waiting = clientVia(p, prefix, { push: { refusedBackoffMs: backoffMs } });
    const refusedAt = Date.now();
    await contendedRound(waiting, prefix, "backoff");
    await contendedRound(waiting, prefix, "backoff");
    expect(p.refused).toBe(1);
    // The back-off is over: one stream asks again, is refused, and the next back-off starts.
    await delay(backoffMs - (Date.now() - refusedAt) + 100);
    await contendedRound(waiting, prefix, "backoff");
    await contendedRound(waiting, prefix, "backoff");
    expect(p.refused).toBe(2);
    // The backend now offers push: after the back-off, streams open and go live.
    p.answer = "forward";
    await delay(backoffMs + 100);
    await contendedRound(waiting, prefix, "backoff");
    expect(p.forwarded).toBeGreaterThan(0);
    expect(p.refused).toBe(2);
    // Accepted once, then refused: the streams already on their way are refused (at most one per
    // waiter: a client that had push does not hold its waiters back), and then it is remembered.
    // The live stream lingers after its last waiter and would serve the next round: let it close.
    await delay(LINGER_MS + 200);
    p.answer = 404;
    await contendedRound(waiting, prefix, "backoff");
    const afterChange = p.refused;
    expect(afterChange).toBeGreaterThan(2);
    expect(afterChange).toBeLessThanOrEqual(2 + WAITERS);
    await contendedRound(waiting, prefix, "backoff");
    await contendedRound(waiting, prefix, "backoff");
    expect(p.refused).toBe(afterChange);
    await waiting.client.settled();
  });

  it("a 503 is a broken stream, not a refusal: the next wait asks again", async () => {
    const p = await proxy(503);
    const prefix = keyPrefix();
    const waiting = clientVia(p, prefix);
    await contendedRound(waiting, prefix, "unavailable");
    const first = p.refused;
    expect(first).toBeGreaterThan(0);
    await contendedRound(waiting, prefix, "unavailable");
    expect(p.refused).toBeGreaterThan(first);
    await waiting.client.settled();
  });

  it("validates push.refusedBackoffMs, naming it, and documents its default", () => {
    const redis = { url: harness().restUrl, token: harness().restToken };
    expect(() => createClient({ redis, push: { refusedBackoffMs: -1 } })).toThrow(
      /options\.push\.refusedBackoffMs/,
    );
    expect(() => createClient({ redis, push: { refusedBackoffMs: 1.5 } })).toThrow(
      InvalidArgumentError,
    );
    expect(() => createClient({ redis, push: "off" as never })).toThrow(/options\.push\b/);
    expect(DEFAULT_CLIENT_OPTIONS.push.refusedBackoffMs).toBe(600_000);
  });
});
