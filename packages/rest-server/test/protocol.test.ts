import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base64, startStack, uniqueKey, type TestStack } from "./support.ts";

// The wire protocol, driven with raw fetch so every status, header and byte is visible.
let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ maxBodyBytes: 4096 });
});
afterAll(async () => {
  await stack?.close();
});

const BASE64 = { "upstash-encoding": "base64" };

describe("auth", () => {
  it("accepts the token as a bearer header", async () => {
    expect(await stack.call("/", { body: ["PING"] })).toMatchObject({
      status: 200,
      json: { result: "PONG" },
    });
  });

  it("accepts the token as the _token query parameter", async () => {
    const res = await stack.call(`/ping?_token=${encodeURIComponent(stack.token)}`, {
      auth: false,
    });
    expect(res).toMatchObject({ status: 200, json: { result: "PONG" } });
  });

  it("answers 401 with an error for a wrong or missing token", async () => {
    const wrong = await stack.call("/", {
      body: ["PING"],
      auth: false,
      headers: { authorization: "Bearer nope" },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ error: expect.stringContaining("WRONGPASS") });
    expect((await stack.call("/ping", { auth: false })).status).toBe(401);
    expect((await stack.call(`/ping?_token=${stack.token}x`, { auth: false })).status).toBe(401);
  });

  it("does not run the command of an unauthorized request", async () => {
    const key = uniqueKey("auth");
    await stack.call("/", { body: ["SET", key, "v"], auth: false });
    expect((await stack.call("/", { body: ["EXISTS", key] })).json).toEqual({ result: 0 });
  });
});

describe("HTTP shape", () => {
  it("answers 405 for a method other than HEAD, GET, POST and PUT", async () => {
    for (const method of ["DELETE", "PATCH", "OPTIONS"]) {
      const res = await stack.call("/ping", { method });
      expect(res.status, method).toBe(405);
    }
    expect((await stack.call("/", { method: "PUT", body: ["PING"] })).status).toBe(200);
  });

  it("answers 413 for a body over maxBodyBytes and accepts one under it", async () => {
    const key = uniqueKey("big");
    const tooBig = await stack.call("/", { body: ["SET", key, "x".repeat(5000)] });
    expect(tooBig.status).toBe(413);
    expect(tooBig.json).toEqual({ error: expect.stringContaining("max request size exceeded") });
    // The unread rest of the body makes the connection unusable: the client must not reuse it.
    expect(tooBig.headers.get("connection")).toBe("close");
    expect((await stack.call("/", { body: ["SET", key, "x".repeat(3000)] })).status).toBe(200);
  });

  it("answers 400 for malformed JSON and for a body that is not a command array", async () => {
    const bad = await stack.call("/", { body: '["SET", "k"' });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: expect.any(String) });
    expect((await stack.call("/", { body: { cmd: "PING" } })).status).toBe(400);
    expect((await stack.call("/pipeline", { body: ["PING"] })).status).toBe(400);
    expect((await stack.call("/multi-exec", { body: "{" })).status).toBe(400);
  });

  it("sends an upstash-sync-token header on every response", async () => {
    const responses = [
      await stack.call("/", { body: ["PING"] }),
      await stack.call("/", { body: ["GET"] }),
      await stack.call("/ping", { auth: false }),
      await stack.call("/ping", { method: "DELETE" }),
      await stack.call("/pipeline", { body: [["PING"]] }),
      await stack.call("/__edgelock/stats"),
    ];
    for (const res of responses)
      expect(res.headers.get("upstash-sync-token"), String(res.status)).toMatch(/.+/);
  });

  it("refuses an unsupported response format", async () => {
    const res = await stack.call("/", {
      body: ["PING"],
      headers: { "upstash-response-format": "resp2" },
    });
    expect(res.status).toBe(400);
  });
});

describe("replies as JSON", () => {
  it("gives integers as numbers, bulk strings as strings and nil as null", async () => {
    const key = uniqueKey("json");
    expect((await stack.call("/", { body: ["INCRBY", key, 41] })).json).toEqual({ result: 41 });
    expect((await stack.call("/", { body: ["GET", key] })).json).toEqual({ result: "41" });
    expect((await stack.call("/", { body: ["GET", uniqueKey("missing")] })).json).toEqual({
      result: null,
    });
    const script = "return {1, 'a', {'b', 2}, false}";
    expect((await stack.call("/", { body: ["EVAL", script, 0] })).json).toEqual({
      result: [1, "a", ["b", 2], null],
    });
  });

  it("answers a Redis error with 400 and its message", async () => {
    const res = await stack.call("/", { body: ["GET"] });
    expect(res).toEqual(expect.objectContaining({ status: 400 }));
    expect(res.json).toEqual({ error: "ERR wrong number of arguments for 'get' command" });
    const noscript = await stack.call("/", { body: ["EVALSHA", "f".repeat(40), 0] });
    expect(noscript.status).toBe(400);
    expect(noscript.json).toEqual({ error: expect.stringContaining("NOSCRIPT") });
  });
});

describe("Upstash-Encoding: base64", () => {
  it("encodes a non-ASCII string as base64 of its UTF-8 bytes", async () => {
    const key = uniqueKey("b64");
    expect(
      (await stack.call("/", { body: ["SET", key, "héllo ✓"], headers: BASE64 })).json,
    ).toEqual({ result: "OK" });
    const res = await stack.call("/", { body: ["GET", key], headers: BASE64 });
    expect(res.json).toEqual({ result: "aMOpbGxvIOKckw==" });
    expect(base64("héllo ✓")).toBe("aMOpbGxvIOKckw==");
    expect((await stack.call("/", { body: ["GET", key] })).json).toEqual({ result: "héllo ✓" });
  });

  it("encodes status replies like PONG but leaves a top-level OK", async () => {
    expect((await stack.call("/", { body: ["PING"], headers: BASE64 })).json).toEqual({
      result: "UE9ORw==",
    });
    expect(
      (await stack.call("/", { body: ["SET", uniqueKey("ok"), "v"], headers: BASE64 })).json,
    ).toEqual({ result: "OK" });
  });

  it("encodes strings inside arrays recursively, numbers and nil untouched", async () => {
    const nested = await stack.call("/", {
      body: ["EVAL", "return {1, 'a', {'b', 2}}", 0],
      headers: BASE64,
    });
    expect(nested.json).toEqual({ result: [1, "YQ==", ["Yg==", 2]] });
    // @upstash/redis decodes every string inside an array (no OK exception there), so a nested
    // status OK must be encoded.
    const key = uniqueKey("nested-ok");
    const ok = await stack.call("/", {
      body: ["EVAL", "return {redis.call('SET', KEYS[1], 'v'), false}", 1, key],
      headers: BASE64,
    });
    expect(ok.json).toEqual({ result: ["T0s=", null] });
  });

  it("keeps binary values byte for byte", async () => {
    const res = await stack.call("/", {
      body: ["EVAL", "return string.char(255, 0, 128)", 0],
      headers: BASE64,
    });
    expect(res.json).toEqual({ result: Buffer.from([255, 0, 128]).toString("base64") });
  });

  it("never encodes errors, also inside pipelines", async () => {
    const res = await stack.call("/pipeline", { body: [["GET"], ["ECHO", "hi"]], headers: BASE64 });
    expect(res.json).toEqual([
      { error: "ERR wrong number of arguments for 'get' command" },
      { result: base64("hi") },
    ]);
  });
});

describe("/pipeline", () => {
  it("answers 200 with one result or inline error per command, in order", async () => {
    const key = uniqueKey("pipe");
    const res = await stack.call("/pipeline", {
      body: [
        ["SET", key, "x"],
        ["INCR", key],
        ["GET", key],
        ["BLPOP", key, 0],
      ],
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual([
      { result: "OK" },
      { error: "ERR value is not an integer or out of range" },
      { result: "x" },
      { error: expect.stringContaining("blpop") },
    ]);
  });
});

describe("/multi-exec", () => {
  it("runs the commands atomically and reports runtime errors inline", async () => {
    const key = uniqueKey("tx");
    const res = await stack.call("/multi-exec", {
      body: [
        ["SET", key, "x"],
        ["INCR", key],
        ["APPEND", key, "y"],
      ],
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual([
      { result: "OK" },
      { error: "ERR value is not an integer or out of range" },
      { result: 2 },
    ]);
  });

  it("answers a discarded transaction (EXECABORT) with a single error and 400, running nothing", async () => {
    const key = uniqueKey("tx-abort");
    const res = await stack.call("/multi-exec", { body: [["SET", key, "x"], ["GET"]] });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: expect.stringContaining("EXECABORT") });
    expect((await stack.call("/", { body: ["EXISTS", key] })).json).toEqual({ result: 0 });
  });

  it("discards a transaction containing a command REST refuses", async () => {
    const key = uniqueKey("tx-refused");
    const res = await stack.call("/multi-exec", {
      body: [
        ["SET", key, "x"],
        ["BLPOP", key, 1],
      ],
    });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: expect.stringContaining("blpop") });
    expect((await stack.call("/", { body: ["EXISTS", key] })).json).toEqual({ result: 0 });
  });
});

describe("commands Upstash refuses over REST", () => {
  const refused: (string | number)[][] = [
    ["BLPOP", "k", 1],
    ["BRPOP", "k", 1],
    ["BLMOVE", "a", "b", "LEFT", "RIGHT", 1],
    ["BZPOPMIN", "k", 1],
    ["XREAD", "BLOCK", 10, "STREAMS", "s", "$"],
    ["WAIT", 0, 10],
    ["SUBSCRIBE", "c"],
    ["PSUBSCRIBE", "c*"],
    ["MULTI"],
    ["EXEC"],
    ["WATCH", "k"],
    ["DISCARD"],
    ["MONITOR"],
    ["SYNC"],
    ["SELECT", 1],
  ];
  for (const command of refused) {
    it(`refuses ${command.join(" ")} with 400 and a message`, async () => {
      const res = await stack.call("/", { body: command });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({
        error: expect.stringContaining(String(command[0]).toLowerCase()),
      });
    });
  }

  it("still serves XREAD without BLOCK and other commands after a refusal", async () => {
    const stream = uniqueKey("stream");
    await stack.call("/", { body: ["XADD", stream, "*", "f", "v"] });
    const res = await stack.call("/", { body: ["XREAD", "COUNT", 1, "STREAMS", stream, "0"] });
    expect(res.status).toBe(200);
    expect((await stack.call("/", { body: ["PING"] })).json).toEqual({ result: "PONG" });
  });
});

describe("path-style commands", () => {
  it("runs /set/k/v and /get/k with GET", async () => {
    const key = uniqueKey("path");
    expect((await stack.call(`/set/${encodeURIComponent(key)}/bar`)).json).toEqual({
      result: "OK",
    });
    expect((await stack.call(`/get/${encodeURIComponent(key)}`)).json).toEqual({ result: "bar" });
  });

  it("appends a POST body as the last argument, then query parameters", async () => {
    const key = uniqueKey("path-body");
    const res = await stack.call(`/set/${encodeURIComponent(key)}?EX=100`, {
      body: '{"a": "b c"}',
    });
    expect(res.json).toEqual({ result: "OK" });
    expect((await stack.call("/", { body: ["GET", key] })).json).toEqual({
      result: '{"a": "b c"}',
    });
    const ttl = (await stack.call("/", { body: ["TTL", key] })).json as { result: number };
    expect(ttl.result).toBeGreaterThan(0);
  });
});
