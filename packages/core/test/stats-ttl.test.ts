import { closeAll, makeNodeRedis, startRedis, type RedisProcess } from "@edgelock/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { delay, makeTestClient } from "./support.ts";

// `statsTtlMs`: a name's hold statistics outlive its last release by between half the ttl and
// the whole of it. A release refreshes their ttl only once half of it has passed (one PEXPIRE
// saved on most releases), for the Lock and for the fair lock's layout (FairLock, writer).

let redis: RedisProcess;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await closeAll();
  await redis.stop();
});

const TTL = 2_000;

describe("hold statistics' ttl (statsTtlMs)", () => {
  for (const kind of ["lock", "fair"] as const) {
    it(`${kind}: refreshed by a release once half of it has passed, not before`, async () => {
      const raw = await makeNodeRedis(redis.url);
      const prefix = `st-${kind}`;
      const { client } = makeTestClient(raw, { prefix, statsTtlMs: TTL });
      const handle = () => (kind === "lock" ? client.lock("n") : client.fairLock("n"));
      const statsKey = kind === "lock" ? `${prefix}:v1:{n}:stats` : `${prefix}:v1:{n}:fair:stats`;
      const cycle = async () => (await handle().acquire({ leaseMs: 10_000 })).release();
      const pttl = async () => Number(await raw.sendCommand(["PTTL", statsKey]));

      await cycle();
      const first = await pttl();
      const firstAt = Date.now();
      expect(first).toBeGreaterThan(TTL / 2);
      expect(first).toBeLessThanOrEqual(TTL);

      await delay(300);
      await cycle(); // within the first half: the ttl runs on
      const second = await pttl();
      expect(second).toBeLessThanOrEqual(first - 250);

      await delay(Math.max(0, TTL / 2 + 100 - (Date.now() - firstAt)));
      await cycle(); // past half of it: refreshed to the whole ttl
      const third = await pttl();
      expect(third).toBeGreaterThan(second);
      expect(third).toBeGreaterThan(TTL - 500);
    });
  }
});
