import { closeAll, makeNodeRedis, startRedis, type RedisProcess } from "@edgelock/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { delay, eventsOf, makeTestClient } from "./support.ts";

// Redis commands are what a database bills and what bounds throughput under contention: the
// operation protocol must not make the Lock's common paths dearer. Counted by Redis itself
// (INFO commandstats) on a Redis of this file's own, over TCP so no proxy adds commands.

let redis: RedisProcess;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await closeAll();
  await redis.stop();
});

async function counted(run: () => Promise<void>): Promise<number> {
  const admin = await makeNodeRedis(redis.url);
  await admin.sendCommand(["CONFIG", "RESETSTAT"]);
  await run();
  const info = String(await admin.sendCommand(["INFO", "commandstats"]));
  let calls = 0;
  for (const m of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    // The counting itself (this RESETSTAT and INFO) is not the Lock's.
    if (!/^(info|config)/.test(m[1]!)) calls += Number(m[2]);
    if (process.env["EDGELOCK_COMMANDS"]) console.log(m[0]);
  }
  return calls;
}

describe("Redis commands per Lock operation (INFO commandstats)", () => {
  it("uncontended acquire + release: at most 26", async () => {
    const { client } = makeTestClient(await makeNodeRedis(redis.url), { prefix: "cb1" });
    const lock = client.lock("uncontended");
    await (await lock.acquire()).release(); // scripts loaded, connection warm
    const calls = await counted(async () => {
      const held = await lock.acquire({ leaseMs: 10_000 });
      await held.release();
    });
    console.log(`uncontended acquire + release: ${calls} Redis commands`);
    expect(calls).toBeLessThanOrEqual(26);
  });

  it("contended hand-off (holder, one queued waiter polling): at most 38 per critical section", async () => {
    // A fixed 200 ms poll: one busy poll, then the claim, whatever the machine's speed.
    const wait = { name: "fixed", maxDelayMs: 200, nextDelay: () => 200 };
    const t = makeTestClient(await makeNodeRedis(redis.url), { prefix: "cb2", wait });
    await (await t.client.lock("contended").acquire()).release();
    const calls = await counted(async () => {
      const first = await t.client.lock("contended").acquire({ leaseMs: 10_000 });
      const waiting = t.client.lock("contended").acquire({ leaseMs: 10_000, waitMs: 5_000 });
      // Release once the waiter's first attempt answered busy and it queued.
      while (!t.events.some((e) => e.type === "waited")) await delay(2);
      await first.release();
      await (await waiting).release();
    });
    console.log(`two critical sections, one contended hand-off: ${calls} Redis commands`);
    expect(eventsOf(t.events, "acquired").at(-1)?.attempts).toBe(2);
    expect(calls / 2).toBeLessThanOrEqual(38);
  });
});
