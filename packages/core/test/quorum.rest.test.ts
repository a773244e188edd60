import { Redis } from "@upstash/redis";
import {
  closeAll,
  keyPrefix,
  makeNodeRedis,
  startStack,
  type NodeRedisClient,
  type Stack,
} from "@edgelock/testkit";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { QuorumError, quorumLock, type QuorumLockOptions } from "../src/index.ts";
import { heldOn } from "./quorum-support.ts";
import { makeTestClient, type TestClient } from "./support.ts";

// Five redis-server processes, each behind its own rest-server, reached by @upstash/redis.
let stacks: Stack[] = [];
let raws: NodeRedisClient[] = [];

beforeAll(async () => {
  stacks = await Promise.all(Array.from({ length: 5 }, () => startStack()));
  raws = await Promise.all(stacks.map((s) => makeNodeRedis(s.redis.url)));
});
afterEach(async () => {
  await Promise.all(stacks.map((s) => s.faults.clear()));
  await Promise.all(stacks.filter((s) => !s.redis.running).map((s) => s.redis.restart()));
  await Promise.all(raws.map((r) => r.ping()));
});
afterAll(async () => {
  await closeAll();
  await Promise.all(stacks.map((s) => s.close()));
});

function setup(options: QuorumLockOptions = { requestTimeoutMs: 1_000 }) {
  const prefix = keyPrefix();
  const dbs: TestClient[] = stacks.map((s) =>
    makeTestClient(new Redis({ url: s.rest.url, token: s.rest.token }), { prefix, leaseMs: 5_000 }),
  );
  const lock = quorumLock(
    dbs.map((d) => d.client),
    "q",
    options,
  );
  const requests = () => dbs.reduce((sum, d) => sum + d.requests.total, 0);
  return {
    lock,
    requests,
    held: () =>
      heldOn(
        stacks.map((s) => s.redis),
        raws,
        prefix,
        "q",
      ),
  };
}

describe("quorum lock over 5 rest-servers (REST)", () => {
  it("uncontended: acquire is 2 HTTP requests per database, release 1", async () => {
    const { lock, requests, held } = setup();
    await (await lock.acquire()).release(); // warm the script caches
    const before = requests();
    const h = await lock.acquire();
    expect(requests() - before).toBe(10);
    expect(await held()).toEqual([true, true, true, true, true]);
    const mid = requests();
    await h.release();
    expect(requests() - mid).toBe(5);
    expect(await held()).toEqual([false, false, false, false, false]);
  });

  it("two databases down: still granted; three down: QuorumError and nothing held on the survivors", async () => {
    const { lock, held } = setup({ requestTimeoutMs: 1_000 });
    await Promise.all([stacks[3]!.redis.kill(), stacks[4]!.redis.kill()]);
    const h = await lock.acquire();
    expect(await held()).toEqual([true, true, true, null, null]);
    await h.release();
    await stacks[2]!.redis.kill();
    const error = await lock.acquire().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuorumError);
    expect((error as QuorumError).answers.map((a) => a.status)).toEqual([
      "granted",
      "granted",
      "error",
      "error",
      "error",
    ]);
    expect(await held()).toEqual([false, false, null, null, null]);
  });

  it("latency pushes the grant past its validity: refused and released everywhere", async () => {
    // Each request takes ~500 ms (under the 800 ms timeout); two rounds exceed the 900 ms lease.
    const { lock, held } = setup({ requestTimeoutMs: 800 });
    await (await lock.acquire()).release(); // scripts cached: no NOSCRIPT round trip under latency
    await Promise.all(stacks.map((s) => s.faults.add({ kind: "latency", ms: 500 })));
    const error = await lock.acquire({ leaseMs: 900 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuorumError);
    expect((error as QuorumError).reason).toBe("validity");
    await Promise.all(stacks.map((s) => s.faults.clear()));
    expect(await held()).toEqual([false, false, false, false, false]);
  });
});
