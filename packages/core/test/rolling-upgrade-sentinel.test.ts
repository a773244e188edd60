import {
  closeAll,
  keyPrefix,
  makeNodeRedis,
  startRedis,
  type RedisProcess,
} from "@edgelock/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { justInTimeStrategy, resolveBackend, type Backend } from "../src/index.ts";
import { oldScript } from "./fixtures/c6a5b43/old-client.ts";
import { eventsOf, makeTestClient } from "./support.ts";

// docs/protocol.md "Rolling upgrade": the restart quarantine's sentinel holds "<until>.<epoch>"
// now. c6a5b43's granting scripts, run with the quarantine on, read it as one number: they honour
// a quarantine the new scripts started, grant after it (refreshing the sentinel without touching
// the epoch), and a sentinel they write after a loss reads as epoch 0 to the new scripts.

const QUARANTINE_MS = 2_500;
const SENTINEL_TTL_MS = 1_209_600_000;
const OPTIONS = {
  quarantineMs: QUARANTINE_MS,
  leaseMs: 1_000,
  claimWindowMs: 1_000,
  requestTimeoutMs: 1_000,
  wait: justInTimeStrategy({ maxMs: 500 }),
} as const;

let redis: RedisProcess;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await closeAll();
  await redis.stop();
});

/** c6a5b43's Lock acquire (try once) with the quarantine on: its status (1 granted, -3 quarantined). */
async function oldAcquire(backend: Backend, prefix: string, name: string): Promise<number> {
  const b = `${prefix}:v1:{${name}}`;
  const keys = [`${b}:lock`, `${b}:fence`, `${b}:q`, `${b}:qd`, `${b}:stats`];
  const op = `${b}:op:old-${Math.random().toString(36).slice(2)}`;
  const args = ["old-owner", 1_000, 0, 2_000, 2_000, 600_000, 604_800_000, `${b}:w:`];
  const reply = (await backend.command(
    [
      "EVAL",
      oldScript("lock/acquire"),
      keys.length + 2,
      ...keys,
      op,
      `${prefix}:v1:sentinel`,
      ...args,
      QUARANTINE_MS,
      SENTINEL_TTL_MS,
    ],
    AbortSignal.timeout(5_000),
  )) as number[];
  return Number(reply[0]);
}

describe("rolling upgrade: the sentinel's grant epoch and c6a5b43's scripts", () => {
  it("an old script grants under the new sentinel and leaves its epoch alone; it honours a quarantine a new script started", async () => {
    const prefix = keyPrefix();
    const admin = await makeNodeRedis(redis.url);
    const old = resolveBackend(await makeNodeRedis(redis.url));
    const { client } = makeTestClient(await makeNodeRedis(redis.url), { ...OPTIONS, prefix });
    await client.initialize();
    await (await client.lock("n").acquire({ leaseMs: 1_000 })).release();
    const sentinel = `${prefix}:v1:sentinel`;
    expect(await admin.get(sentinel)).toBe("0.1");

    expect(await oldAcquire(old, prefix, "o")).toBe(1);
    expect(await admin.get(sentinel)).toBe("0.1"); // refreshed by PEXPIRE: value kept
    await (await client.lock("n").acquire({ leaseMs: 1_000 })).release();
    expect(await admin.get(sentinel)).toBe("0.2");

    // A loss: the new script starts the quarantine, the old one sees it running.
    await admin.del(sentinel);
    expect(await client.lock("n").tryAcquire()).toBeNull();
    expect(await admin.get(sentinel)).toMatch(/^\d{13}\.\d+$/);
    expect(await oldAcquire(old, prefix, "o2")).toBe(-3);
    admin.destroy();
  });

  it("a sentinel an old script wrote after a loss reads as epoch 0: a new client that saw more reports a rollback", async () => {
    const prefix = keyPrefix();
    const admin = await makeNodeRedis(redis.url);
    const old = resolveBackend(await makeNodeRedis(redis.url));
    const { client, events } = makeTestClient(await makeNodeRedis(redis.url), {
      ...OPTIONS,
      prefix,
    });
    await client.initialize();
    await (await client.lock("n").acquire({ leaseMs: 1_000 })).release();
    await admin.del(`${prefix}:v1:sentinel`);
    expect(await oldAcquire(old, prefix, "o")).toBe(-3); // the old script starts the quarantine
    expect(await admin.get(`${prefix}:v1:sentinel`)).toMatch(/^\d{13}$/);

    expect(await client.lock("n").tryAcquire()).toBeNull();
    expect(eventsOf(events, "rolled-back")).toHaveLength(1);
    expect(eventsOf(events, "quarantined")).toHaveLength(1);
    admin.destroy();
  });
});
