import { createClient } from "redis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApp, type FaultRule } from "../src/index.ts";
import { startStack, uniqueKey, type TestStack } from "./support.ts";

// Fault injection through the token-protected control endpoints, against a real port, so that
// dropped sockets and hung requests look to the client exactly as they would over a network.
let stack: TestStack;
let redis: ReturnType<typeof createClient>;
beforeAll(async () => {
  stack = await startStack({ enableFaults: true });
  redis = createClient({ url: stack.redis.url });
  await redis.connect();
});
afterAll(async () => {
  redis?.destroy();
  await stack?.close();
});
beforeEach(async () => {
  await control("DELETE", "/__edgelock/faults");
  await control("POST", "/__edgelock/stats/reset");
});

const control = (method: string, path: string, body?: unknown, auth = true) =>
  stack.call(path, { method, body, auth });
const addFault = async (rule: FaultRule | FaultRule[]) => {
  const res = await control("POST", "/__edgelock/faults", rule);
  expect(res.status).toBe(200);
};
const incr = (key: string, signal?: AbortSignal) =>
  stack.call("/", { body: ["INCR", key], ...(signal !== undefined && { signal }) });
const valueOf = async (key: string) => Number((await redis.get(key)) ?? 0);

describe("control endpoints", () => {
  it("answer 401 without the token", async () => {
    for (const [method, path] of [
      ["GET", "/__edgelock/stats"],
      ["POST", "/__edgelock/stats/reset"],
      ["GET", "/__edgelock/faults"],
      ["POST", "/__edgelock/faults"],
      ["DELETE", "/__edgelock/faults"],
      ["POST", "/__edgelock/flush-scripts"],
    ] as const) {
      expect((await control(method, path, undefined, false)).status, `${method} ${path}`).toBe(401);
    }
  });

  it("answer 404 for the fault endpoints when faults are off", async () => {
    const off = createApp({ redis, token: "tok" });
    const auth = { authorization: "Bearer tok" };
    const post = (path: string, body?: unknown) =>
      off.app.request(path, {
        method: "POST",
        headers: auth,
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
    expect((await post("/__edgelock/faults", { kind: "fail-before" })).status).toBe(404);
    expect((await off.app.request("/__edgelock/faults", { headers: auth })).status).toBe(404);
    expect((await post("/__edgelock/flush-scripts")).status).toBe(404);
    expect((await off.app.request("/__edgelock/stats", { headers: auth })).status).toBe(200);
    await expect(off.faults.add({ kind: "fail-before" })).rejects.toThrow(/disabled/);
    await off.close();
  });

  it("reject an invalid rule with 400 and arm nothing", async () => {
    const res = await control("POST", "/__edgelock/faults", [
      { kind: "fail-before" },
      { kind: "explode" },
    ]);
    expect(res.status).toBe(400);
    expect((await control("GET", "/__edgelock/faults")).json).toEqual([]);
    expect((await control("POST", "/__edgelock/faults", { kind: "latency", ms: -1 })).status).toBe(
      400,
    );
  });

  it("list the armed rules with their remaining uses, and clear them", async () => {
    await addFault([
      { kind: "fail-before", times: 3, match: "nothing-matches-this" },
      { kind: "latency", ms: 0 },
    ]);
    expect((await control("GET", "/__edgelock/faults")).json).toEqual([
      { kind: "latency", ms: 0 },
      { kind: "fail-before", times: 3, match: "nothing-matches-this" },
    ]);
    await control("DELETE", "/__edgelock/faults");
    expect((await control("GET", "/__edgelock/faults")).json).toEqual([]);
  });

  it("are never faulted nor counted", async () => {
    await addFault({ kind: "fail-before", times: 10 });
    expect((await control("GET", "/__edgelock/stats")).status).toBe(200);
    expect((await control("GET", "/__edgelock/faults")).status).toBe(200);
    expect((await control("GET", "/__edgelock/stats")).json).toEqual({
      httpRequests: 0,
      redisCommands: 0,
      commands: {},
    });
  });
});

describe("fault kinds", () => {
  it("fail-before answers 502 without executing, once by default", async () => {
    const key = uniqueKey("fail-before");
    await addFault({ kind: "fail-before" });
    const failed = await incr(key);
    expect(failed.status).toBe(502);
    expect(failed.json).toEqual({ error: expect.stringContaining("fail-before") });
    expect(await valueOf(key)).toBe(0);
    expect((await incr(key)).json).toEqual({ result: 1 });
  });

  it("fail-after executes, then answers the given status", async () => {
    const key = uniqueKey("fail-after");
    await addFault({ kind: "fail-after", status: 503 });
    expect((await incr(key)).status).toBe(503);
    expect(await valueOf(key)).toBe(1);
  });

  it("drop-after executes, then closes the socket without any HTTP response", async () => {
    const key = uniqueKey("drop-after");
    await addFault({ kind: "drop-after" });
    await expect(incr(key)).rejects.toThrow(/fetch failed/);
    expect(await valueOf(key)).toBe(1);
  });

  it("drop-before closes the socket without executing", async () => {
    const key = uniqueKey("drop-before");
    await addFault({ kind: "drop-before" });
    await expect(incr(key)).rejects.toThrow(/fetch failed/);
    expect(await valueOf(key)).toBe(0);
  });

  it("hang never answers until the client gives up, without executing", async () => {
    const key = uniqueKey("hang");
    await addFault({ kind: "hang" });
    await expect(incr(key, AbortSignal.timeout(300))).rejects.toThrow(/abort|timeout/i);
    expect(await valueOf(key)).toBe(0);
    expect((await incr(key)).json).toEqual({ result: 1 });
  });

  it("hang with execute: true runs the command first", async () => {
    const key = uniqueKey("hang-exec");
    await addFault({ kind: "hang", execute: true });
    await expect(incr(key, AbortSignal.timeout(300))).rejects.toThrow(/abort|timeout/i);
    expect(await valueOf(key)).toBe(1);
  });

  it("latency delays every request, half before executing and half after", async () => {
    const key = uniqueKey("latency");
    await addFault({ kind: "latency", ms: 1_200 });
    const started = Date.now();
    let answered = false;
    const pending = incr(key).then((res) => {
      answered = true;
      return res;
    });
    // The command has run while the answer is still held back.
    while ((await valueOf(key)) === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered).toBe(false);
    expect((await pending).json).toEqual({ result: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_150);
    await control("DELETE", "/__edgelock/faults");
    const quick = Date.now();
    await incr(key);
    expect(Date.now() - quick).toBeLessThan(1_150);
  });

  it("flush-scripts empties the script cache (as a rule and as its own endpoint)", async () => {
    const load = async () =>
      (await stack.call("/", { body: ["SCRIPT", "LOAD", "return 7"] })).json as { result: string };
    const evalsha = async (sha: string) => stack.call("/", { body: ["EVALSHA", sha, 0] });
    const { result: sha } = await load();
    expect((await evalsha(sha)).json).toEqual({ result: 7 });
    await addFault({ kind: "flush-scripts" });
    expect((await evalsha(sha)).json).toEqual({ error: expect.stringContaining("NOSCRIPT") });
    expect((await control("GET", "/__edgelock/faults")).json).toEqual([]);
    await load();
    expect((await control("POST", "/__edgelock/flush-scripts")).status).toBe(200);
    expect((await evalsha(sha)).json).toEqual({ error: expect.stringContaining("NOSCRIPT") });
  });
});

describe("rule selection", () => {
  it("match is a case-insensitive substring of the body; other requests leave the rule armed", async () => {
    const key = uniqueKey("match");
    await addFault({ kind: "fail-before", match: "INCR" });
    expect((await stack.call("/", { body: ["get", key] })).status).toBe(200);
    expect((await control("GET", "/__edgelock/faults")).json).toEqual([
      { kind: "fail-before", match: "INCR", times: 1 },
    ]);
    expect((await stack.call("/", { body: ["incr", key] })).status).toBe(502);
    expect(await valueOf(key)).toBe(0);
    expect((await control("GET", "/__edgelock/faults")).json).toEqual([]);
  });

  it("times says how many requests a rule takes", async () => {
    const key = uniqueKey("times");
    await addFault({ kind: "fail-before", times: 2 });
    expect((await incr(key)).status).toBe(502);
    expect((await incr(key)).status).toBe(502);
    expect((await incr(key)).status).toBe(200);
    expect(await valueOf(key)).toBe(1);
  });

  it("applies to pipelines and multi-exec, matched against the whole body", async () => {
    const key = uniqueKey("batch");
    await addFault({ kind: "fail-after", match: "eval" });
    const res = await stack.call("/pipeline", {
      body: [
        ["INCR", key],
        ["EVAL", "return 1", 0],
      ],
    });
    expect(res.status).toBe(502);
    expect(await valueOf(key)).toBe(1);
  });
});

describe("stats", () => {
  it("counts HTTP requests, Redis commands and commands by name", async () => {
    const key = uniqueKey("stats");
    await stack.call("/pipeline", {
      body: [
        ["SET", key, "1"],
        ["INCR", key],
        ["GET", key],
      ],
    });
    await stack.call("/", { body: ["EVALSHA", "f".repeat(40), 0] });
    await stack.call("/multi-exec", {
      body: [
        ["INCR", key],
        ["INCR", key],
      ],
    });
    await stack.call(`/get/${encodeURIComponent(key)}`);
    const stats = (await control("GET", "/__edgelock/stats")).json;
    expect(stats).toEqual({
      httpRequests: 4,
      redisCommands: 7,
      commands: { set: 1, incr: 3, get: 2, evalsha: 1 },
    });
    expect(stack.server.rest.stats()).toEqual(stats);
    await control("POST", "/__edgelock/stats/reset");
    expect(stack.server.rest.stats()).toEqual({ httpRequests: 0, redisCommands: 0, commands: {} });
  });

  it("counts a faulted request but not the command it did not run", async () => {
    await addFault({ kind: "fail-before" });
    await incr(uniqueKey("stats-fault"));
    expect(stack.server.rest.stats()).toEqual({ httpRequests: 1, redisCommands: 0, commands: {} });
  });
});
