import { createClient, type RedisClientType } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { edgelockLibrary } from "../src/libraries/edgelock.ts";
import { redlockLibrary } from "../src/libraries/redlock.ts";
import { startNetwork, type Network } from "../src/net/network.ts";
import { runContention } from "../src/run/contention.ts";
import type { Workload } from "../src/run/workload.ts";

// The bench's request counts come from the rest-server's counters (REST) and the proxy's RESP
// parser (TCP). Both must agree with what Redis itself says it ran.

const workload: Workload = { workers: 3, sections: 3, csMs: 5, irregular: false, waitMs: 10_000 };
let network: Network;
let redis: RedisClientType;

beforeAll(async () => {
  network = await startNetwork();
  redis = createClient({ url: network.redis.url });
  await redis.connect();
});

afterAll(async () => {
  await redis?.quit();
  await network?.close();
});

/**
 * Calls per command since CONFIG RESETSTAT, for the commands a client sends itself. Redis also
 * counts every `redis.call` a script makes under that command's name, so those names cannot be
 * compared; the scripts' own EVALSHA/EVAL, SUBSCRIBE, PSUBSCRIBE (a client's one stream per
 * name) and ioredis' INFO ready check can. (INFO does not count itself in its own answer.)
 * `connectionSetup`: also CLIENT SETINFO, which ioredis
 * sends on connect (through the proxy) and the rest-server's own push connections send too (not
 * on behalf of any request).
 */
async function clientCommands(connectionSetup = false): Promise<Map<string, number>> {
  const text = await redis.info("commandstats");
  const calls = new Map<string, number>();
  for (const [, name, count] of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    const fromClient =
      /^(evalsha|eval|evalsha_ro|eval_ro|subscribe|psubscribe|info)$/.test(name!) ||
      (connectionSetup && name!.startsWith("client|"));
    if (fromClient) calls.set(name!, Number(count));
  }
  return calls;
}

const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

/**
 * Commands Redis refused before running them, which commandstats never sees: ioredis sends CLIENT
 * SETINFO on connect, a subcommand Redis 7.0 does not know (ERR). Nothing else in these runs errs
 * with ERR (NOSCRIPT has its own error code).
 */
async function refused(): Promise<number> {
  const match = /^errorstat_ERR:count=(\d+)/m.exec(await redis.info("errorstats"));
  return Number(match?.[1] ?? 0);
}

describe("request counters", () => {
  it("the rest-server's counts match INFO commandstats for a short REST run (push streams included)", async () => {
    await redis.configResetStat();
    const before = await network.counters();
    // without the bench's Redis cost meter, whose INFO commands would show in the statistics
    const result = await runContention(
      network,
      edgelockLibrary("push"),
      workload,
      { ms: 5, jitterMs: 0 },
      false,
    );
    const after = await network.counters();
    const stats = await clientCommands();
    expect(result.metrics.violations).toBe(0);
    expect(after.restCommands - before.restCommands).toBe(total(stats));
    for (const [name, calls] of stats)
      expect(after.commands[name]! - (before.commands[name] ?? 0), name).toBe(calls);
    // edgelock sends one command per request, so HTTP requests and commands agree too.
    expect(after.http - before.http).toBe(after.restCommands - before.restCommands);
    expect(result.requests).toBeLessThanOrEqual(after.http - before.http);
  });

  it("the proxy's wire count matches INFO commandstats for a short TCP run", async () => {
    await redis.configResetStat();
    const before = await network.counters();
    const result = await runContention(
      network,
      redlockLibrary,
      workload,
      { ms: 5, jitterMs: 0 },
      false,
    );
    const after = await network.counters();
    expect(result.metrics.violations).toBe(0);
    expect(after.wire - before.wire).toBe(total(await clientCommands(true)) + (await refused()));
  });
});
