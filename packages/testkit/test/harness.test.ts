import { afterAll, describe, expect, it } from "vitest";
import { BACKENDS, closeAll, harness, makeNodeRedis, makeUpstash } from "../src/index.ts";

afterAll(closeAll);

describe("global setup", () => {
  it("provides the harness env to tests", () => {
    const env = harness();
    expect(env.redisUrl).toMatch(/^redis:\/\/[^/]+:\d+/);
    expect(env.restUrl).toMatch(/^https?:\/\//);
    expect(env.restToken.length).toBeGreaterThan(0);
    if (!env.external) {
      expect(env.faultsEnabled).toBe(true);
      expect(env.redisUrl).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/);
      expect(env.restUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    }
  });

  it("REST and TCP reach the same database unless the env points them elsewhere", async () => {
    const env = harness();
    const key = `t-harness-${Math.random().toString(36).slice(2)}`;
    const tcp = await makeNodeRedis(env.redisUrl);
    await tcp.set(key, "via-tcp");
    const rest = makeUpstash(env, { automaticDeserialization: false });
    const seen = await rest.get<string>(key);
    await tcp.del(key);
    if (!env.external) expect(seen).toBe("via-tcp");
  });

  it("the rest-server refuses a wrong token", async () => {
    const env = harness();
    const response = await fetch(env.restUrl, {
      method: "POST",
      headers: { authorization: "Bearer wrong" },
      body: '["PING"]',
    });
    await response.body?.cancel();
    expect(response.status).toBe(401);
  });
});

describe("BACKENDS", () => {
  it("lists rest and tcp, and each makes a client that answers", async () => {
    expect(BACKENDS.map((b) => b.name)).toEqual(["rest", "tcp"]);
    for (const backend of BACKENDS) {
      if (backend.name === "rest") expect(await (await backend.make()).ping()).toBe("PONG");
      else expect(await (await backend.make()).ping()).toBe("PONG");
    }
  });
});

describe("closeAll", () => {
  it("closes every node-redis client made, including one already closed", async () => {
    const a = await makeNodeRedis(harness().redisUrl);
    const b = await makeNodeRedis(harness().redisUrl);
    b.destroy();
    await closeAll();
    expect(a.isOpen).toBe(false);
    expect(b.isOpen).toBe(false);
  });
});
