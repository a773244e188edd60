import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type RestApp } from "../src/index.ts";
import { startRedis, type RedisProcess } from "./redis-process.ts";
import { uniqueKey } from "./support.ts";

// createApp() without a port: everything through app.request(), as the contract promises.
let redisProcess: RedisProcess;
let redis: ReturnType<typeof createClient>;
let rest: RestApp;
beforeAll(async () => {
  redisProcess = await startRedis();
  redis = createClient({ url: redisProcess.url });
  await redis.connect();
  rest = createApp({ redis, token: "tok", enableFaults: true });
});
afterAll(async () => {
  await rest?.close();
  redis?.destroy();
  await redisProcess?.stop();
});

const headers = { authorization: "Bearer tok" };
const post = (path: string, body: unknown, init: RequestInit = {}) =>
  rest.app.request(path, { method: "POST", headers, body: JSON.stringify(body), ...init });

describe("createApp", () => {
  it("validates its options", () => {
    expect(() => createApp({ redis, token: "" })).toThrow(/token/);
    expect(() => createApp({ redis, token: "t", maxBodyBytes: 0 })).toThrow(/maxBodyBytes/);
  });

  it("serves commands through app.request()", async () => {
    const key = uniqueKey("inproc");
    expect(await (await post("/", ["SET", key, "v"])).json()).toEqual({ result: "OK" });
    const res = await post("/", ["GET", key]);
    expect(res.headers.get("upstash-sync-token")).toMatch(/.+/);
    expect(await res.json()).toEqual({ result: "v" });
  });

  it("drops a request by rejecting app.request() when there is no socket", async () => {
    await rest.faults.add({ kind: "drop-before" });
    await expect(post("/", ["PING"])).rejects.toThrow(/dropped/);
    expect((await post("/", ["PING"])).status).toBe(200);
  });

  it("close() releases hung requests and ends subscriber streams", async () => {
    const app = createApp({ redis, token: "tok", enableFaults: true });
    await app.faults.add({ kind: "hang" });
    const hung = app.app.request("/", { method: "POST", headers, body: '["PING"]' });
    const stream = await app.app.request("/subscribe/some-channel", {
      method: "POST",
      headers,
      body: "[]",
    });
    const reader = stream.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toBe("data: subscribe,some-channel,1\n\n");
    const channels = async () =>
      ((await redis.sendCommand(["PUBSUB", "NUMSUB", "some-channel"])) as unknown[])[1];
    expect(await channels()).toBe(1);
    await app.close();
    await expect(hung).rejects.toThrow(/dropped/);
    expect((await reader.read()).done).toBe(true);
    for (let i = 0; i < 100 && (await channels()) !== 0; i += 1)
      await new Promise((r) => setTimeout(r, 20));
    expect(await channels()).toBe(0);
  });

  it("streams psubscribe messages in Upstash's format", async () => {
    const res = await rest.app.request("/psubscribe/news.*", {
      method: "POST",
      headers,
      body: "[]",
    });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toBe("data: psubscribe,news.*,1\n\n");
    await redis.publish("news.today", "a,b");
    expect(decoder.decode((await reader.read()).value)).toBe(
      "data: pmessage,news.*,news.today,a,b\n\n",
    );
    await reader.cancel();
  });
});
