import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedis, TestkitError, type RedisProcess } from "../src/index.ts";
import { queryReadiness } from "../src/redis/redis-info.ts";
import { startHarness } from "../src/start-harness.ts";

let redis: RedisProcess;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis.stop());

const ping = async (restUrl: string, token: string) => {
  const response = await fetch(restUrl, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: '["PING"]',
  });
  return (await response.json()) as unknown;
};

describe("startHarness (what the global setup runs)", () => {
  it("with no variables: starts redis and a rest-server, and stops both", async () => {
    const running = await startHarness({});
    const { env } = running;
    expect(env).toMatchObject({ faultsEnabled: true, external: false });
    expect(await ping(env.restUrl, env.restToken)).toEqual({ result: "PONG" });
    const port = Number(new URL(env.redisUrl).port);
    expect(await queryReadiness(port)).not.toBeNull();
    await running.stop();
    expect(await queryReadiness(port)).toBeNull();
    await expect(fetch(env.restUrl)).rejects.toThrow();
  });

  it("with REDIS_URL: fronts that Redis, external, and leaves it running", async () => {
    const running = await startHarness({ REDIS_URL: redis.url });
    expect(running.env).toMatchObject({ redisUrl: redis.url, faultsEnabled: true, external: true });
    expect(await ping(running.env.restUrl, running.env.restToken)).toEqual({ result: "PONG" });
    await running.stop();
    expect(await queryReadiness(redis.port)).not.toBeNull();
  });

  it("with UPSTASH_REDIS_REST_*: uses them as the REST endpoint, no faults", async () => {
    const vars = {
      REDIS_URL: redis.url,
      UPSTASH_REDIS_REST_URL: "https://example.upstash.io",
      UPSTASH_REDIS_REST_TOKEN: "tok",
    };
    const running = await startHarness(vars);
    expect(running.env).toEqual({
      redisUrl: redis.url,
      restUrl: "https://example.upstash.io",
      restToken: "tok",
      faultsEnabled: false,
      external: true,
    });
    await running.stop();
  });

  it("names the missing variable when only half of the Upstash pair is set", async () => {
    await expect(startHarness({ UPSTASH_REDIS_REST_URL: "https://x" })).rejects.toThrow(
      /UPSTASH_REDIS_REST_TOKEN/,
    );
    await expect(startHarness({ UPSTASH_REDIS_REST_TOKEN: "t" })).rejects.toBeInstanceOf(
      TestkitError,
    );
  });

  it("fails (rather than hangs) when REDIS_URL does not answer", async () => {
    await expect(startHarness({ REDIS_URL: "redis://127.0.0.1:1" })).rejects.toThrow(
      /cannot connect/,
    );
  });
});
