import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { closeAll, makeNodeRedis, startRedis, type RedisProcess } from "../src/index.ts";
import { queryReadiness } from "../src/redis/redis-info.ts";
import { processAlive as alive } from "./support/process-alive.ts";

const started: RedisProcess[] = [];
async function start(persistence: boolean): Promise<RedisProcess> {
  const redis = await startRedis({ persistence });
  started.push(redis);
  return redis;
}

afterAll(async () => {
  await closeAll();
  await Promise.all(started.map((r) => r.stop()));
});

describe("startRedis", () => {
  it("serves on its own port and url, in its own dir", async () => {
    const [a, b] = await Promise.all([start(false), start(false)]);
    expect(a!.port).not.toBe(b!.port);
    expect(a!.url).toBe(`redis://127.0.0.1:${a!.port}`);
    expect(a!.dir).not.toBe(b!.dir);
    const client = await makeNodeRedis(a!.url);
    expect(await client.ping()).toBe("PONG");
  });

  it("without persistence a restart comes back empty, on the same port", async () => {
    const redis = await start(false);
    const client = await makeNodeRedis(redis.url);
    await client.set("k", "v");
    const pidBefore = (await queryReadiness(redis.port))!.pid;
    await redis.restart();
    const after = await queryReadiness(redis.port);
    expect(after?.pid).not.toBe(pidBefore);
    expect(await client.get("k")).toBeNull();
  });

  it("with persistence a restart reloads the data; restart({ flush: true }) comes back empty", async () => {
    const redis = await start(true);
    const client = await makeNodeRedis(redis.url);
    await client.set("k", "v");
    await redis.restart();
    expect(await client.get("k")).toBe("v");
    await redis.restart({ flush: true });
    expect(await client.get("k")).toBeNull();
  });

  it("kill() is a crash: the server is gone, and with persistence restart() keeps acknowledged writes", async () => {
    const redis = await start(true);
    const client = await makeNodeRedis(redis.url);
    await client.set("k", "v");
    const pid = (await queryReadiness(redis.port))!.pid;
    await redis.kill();
    expect(redis.running).toBe(false);
    expect(alive(pid)).toBe(false);
    expect(await queryReadiness(redis.port)).toBeNull();
    await redis.restart();
    expect(redis.running).toBe(true);
    expect(await client.get("k")).toBe("v");
  });

  it("stop() is final: the process and its dir are gone, and restart() refuses", async () => {
    const redis = await start(false);
    const pid = (await queryReadiness(redis.port))!.pid;
    await redis.stop();
    await redis.stop();
    expect(alive(pid)).toBe(false);
    expect(existsSync(redis.dir)).toBe(false);
    await expect(redis.restart()).rejects.toThrow(/was stopped/);
  });
});
