import { Redis } from "@upstash/redis";
import { closeAll, makeNodeRedis, startStack, type Stack } from "@edgelock/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LeaseLostError } from "../src/index.ts";
import { aborted, makeTestClient } from "./support.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await closeAll();
  await stack.close();
});

describe("Redis restarted mid-hold (data lost)", () => {
  const backends = {
    rest: () => new Redis({ url: stack.rest.url, token: stack.rest.token }),
    tcp: () => makeNodeRedis(stack.redis.url),
  };
  for (const [name, makeRedis] of Object.entries(backends)) {
    it(`${name}: the holder learns it lost the lease, and the next fence is still larger`, async () => {
      const { client } = makeTestClient(await makeRedis(), { leaseMs: 600, prefix: `r${name}` });
      const held = await client.lock("restart").acquire();
      await stack.redis.restart({ flush: true });
      const reason = (await aborted(held.signal, 5_000)) as LeaseLostError;
      expect(["gone", "deadline"]).toContain(reason.reason);
      const next = await client.lock("restart").acquire({ waitMs: 5_000 });
      expect(next.fence).toBeGreaterThan(held.fence);
      await next.release();
    });
  }
});
