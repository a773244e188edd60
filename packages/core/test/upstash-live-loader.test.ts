import { closeAll, harness, keyPrefix, makeUpstash } from "@edgelock/testkit";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import {
  LIVE_TOKEN_VAR,
  LIVE_URL_VAR,
  LiveEnvError,
  liveDatabaseFromEnv,
  startLiveRun,
} from "./conformance/upstash-live.ts";
import { makeTestClient } from "./support.ts";

// The live suites' wiring (conformance.upstash-live.test.ts) in every run, with no credentials:
// the loader is pointed at this project's own rest-server, so the path a real Upstash run takes
// (env → target → @upstash/redis → requests counted → keys scoped and removed) is not dead code.

afterAll(closeAll);
afterEach(() => vi.restoreAllMocks());

describe("the live database loader", () => {
  it("no variables: a named skip naming both; one variable: an error naming the missing one", () => {
    const none = liveDatabaseFromEnv({});
    expect(none).toEqual({ skip: expect.stringContaining(LIVE_URL_VAR) });
    expect(none).toEqual({ skip: expect.stringContaining(LIVE_TOKEN_VAR) });
    expect(liveDatabaseFromEnv({ [LIVE_URL_VAR]: " ", [LIVE_TOKEN_VAR]: "" })).toEqual(none);

    const noToken = () => liveDatabaseFromEnv({ [LIVE_URL_VAR]: "https://x.upstash.io" });
    expect(noToken).toThrow(LiveEnvError);
    expect(noToken).toThrow(new RegExp(`^${LIVE_TOKEN_VAR} is not set`));
    const noUrl = () => liveDatabaseFromEnv({ [LIVE_TOKEN_VAR]: "t" });
    expect(noUrl).toThrow(new RegExp(`^${LIVE_URL_VAR} is not set`));
  });

  it("pointed at the local rest-server: pins count real HTTP requests, and cleanup removes exactly the run's keys", async () => {
    const { restUrl, restToken } = harness();
    const live = liveDatabaseFromEnv({ [LIVE_URL_VAR]: restUrl, [LIVE_TOKEN_VAR]: restToken });
    if ("skip" in live) throw new Error(`the loader skipped a set environment: ${live.skip}`);
    const run = startLiveRun(live.credentials);
    const prefix = keyPrefix();
    expect(prefix.startsWith(run.scope)).toBe(true);

    // Warm the scripts, so the fresh client's requests are the protocol's, not NOSCRIPT's.
    const warm = makeTestClient(await run.target.makeRedis(), { prefix });
    const warmHeld = await warm.client.lock("l").acquire({ leaseMs: 10_000 });
    await warmHeld.extend(10_000);
    await warmHeld.release();

    // A fresh client (no server time yet): every backend request is one POST on the wire.
    const posts: string[] = [];
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.startsWith(restUrl) && (init?.method ?? "GET") === "POST") posts.push(url);
      return realFetch(input, init);
    });
    const { client, requests } = makeTestClient(await run.target.makeRedis(), { prefix });
    const held = await client.lock("l").acquire({ leaseMs: 10_000 });
    expect(requests.total).toBe(1);
    await held.extend(10_000);
    await held.release();
    expect(requests.total).toBe(3);
    expect(posts).toHaveLength(requests.total);
    vi.restoreAllMocks();

    // Keys of the run and one outside it; cleanup takes the first and leaves the other.
    const redis = makeUpstash(harness());
    const outside = `outside-${keyPrefix()}`;
    await redis.set(outside, "1");
    await redis.set(`${prefix}:extra`, "1", { px: 60_000 });
    const removed = await run.cleanup();
    expect(removed).toBeGreaterThanOrEqual(2); // the fence key and the extra one, at least
    const [, left] = await redis.scan(0, { match: `${run.scope}*`, count: 1_000 });
    expect(left).toEqual([]);
    expect(await redis.get(outside)).toBe(1);
    await redis.del(outside);
  });
});
