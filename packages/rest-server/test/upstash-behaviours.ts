import { randomUUID } from "node:crypto";
import { Redis } from "@upstash/redis";
import { expect, it } from "vitest";

/** Where the checks run: a real Upstash database or this package's server. */
export interface Target {
  readonly url: string;
  readonly token: string;
}

const B64 = { "upstash-encoding": "base64" };

/**
 * Every Upstash behaviour the project relies on (docs/upstash-compatibility.md), as checks that
 * run against any target. Run against real Upstash they verify the documentation; run against the
 * local server they prove it behaves the same.
 */
export function upstashBehaviours(target: () => Target): void {
  const prefix = `edgelock-compat:${randomUUID()}`;
  const key = (label: string) => `${prefix}:${label}`;
  const call = async (
    path: string,
    init: {
      body?: unknown;
      headers?: Record<string, string>;
      method?: string;
      auth?: "bearer" | "query" | "wrong";
    } = {},
  ) => {
    const { url, token } = target();
    const headers: Record<string, string> = { ...init.headers };
    let full = `${url.replace(/\/+$/, "")}${path}`;
    if ((init.auth ?? "bearer") === "bearer") headers["authorization"] = `Bearer ${token}`;
    if (init.auth === "query")
      full += `${path.includes("?") ? "&" : "?"}_token=${encodeURIComponent(token)}`;
    if (init.auth === "wrong") headers["authorization"] = `Bearer ${token}-wrong`;
    const body =
      init.body === undefined
        ? undefined
        : typeof init.body === "string"
          ? init.body
          : JSON.stringify(init.body);
    const res = await fetch(full, {
      method: init.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      ...(body !== undefined && { body }),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: res.status, headers: res.headers, json };
  };

  it("auth: bearer header and _token are accepted, a wrong token gets 401 WRONGPASS", async () => {
    expect(await call("/", { body: ["PING"] })).toMatchObject({
      status: 200,
      json: { result: "PONG" },
    });
    expect(await call("/ping", { auth: "query" })).toMatchObject({
      status: 200,
      json: { result: "PONG" },
    });
    const wrong = await call("/", { body: ["PING"], auth: "wrong" });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ error: expect.stringMatching(/WRONGPASS/) });
  });

  it("405 for a method other than HEAD, GET, POST, PUT", async () => {
    expect((await call("/ping", { method: "DELETE" })).status).toBe(405);
  });

  it("every response carries upstash-sync-token", async () => {
    expect((await call("/", { body: ["PING"] })).headers.get("upstash-sync-token")).toBeTruthy();
  });

  it("malformed JSON is a 400 with an error", async () => {
    const res = await call("/", { body: '["PING"' });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: expect.any(String) });
  });

  it("a command error is a 400 with Redis's message", async () => {
    const res = await call("/", { body: ["GET"] });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: expect.stringContaining("wrong number of arguments") });
  });

  it("base64: UTF-8 bytes of strings, status replies too, a top-level OK spared, arrays recursively", async () => {
    const k = key("b64");
    expect((await call("/", { body: ["SET", k, "héllo ✓"], headers: B64 })).json).toEqual({
      result: "OK",
    });
    expect((await call("/", { body: ["GET", k], headers: B64 })).json).toEqual({
      result: "aMOpbGxvIOKckw==",
    });
    expect((await call("/", { body: ["PING"], headers: B64 })).json).toEqual({
      result: "UE9ORw==",
    });
    expect((await call("/", { body: ["INCR", key("n")], headers: B64 })).json).toEqual({
      result: 1,
    });
    expect((await call("/", { body: ["GET", key("none")], headers: B64 })).json).toEqual({
      result: null,
    });
    const nested = await call("/", {
      body: ["EVAL", "return {1, 'a', {'b', 2}}", 0],
      headers: B64,
    });
    expect(nested.json).toEqual({ result: [1, "YQ==", ["Yg==", 2]] });
    const nestedOk = await call("/", {
      body: ["EVAL", "return {redis.call('SET', KEYS[1], 'v')}", 1, key("ok")],
      headers: B64,
    });
    expect(nestedOk.json).toEqual({ result: ["T0s="] });
  });

  it("pipeline: 200 with errors inline", async () => {
    const k = key("pipe");
    const res = await call("/pipeline", {
      body: [
        ["SET", k, "x"],
        ["INCR", k],
        ["GET", k],
      ],
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual([
      { result: "OK" },
      { error: expect.stringContaining("not an integer") },
      { result: "x" },
    ]);
  });

  it("multi-exec: runtime errors inline; a discarded transaction is one error with 400", async () => {
    const k = key("tx");
    const ok = await call("/multi-exec", {
      body: [
        ["SET", k, "x"],
        ["INCR", k],
      ],
    });
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual([
      { result: "OK" },
      { error: expect.stringContaining("not an integer") },
    ]);
    const discarded = await call("/multi-exec", { body: [["SET", key("tx2"), "x"], ["GET"]] });
    expect(discarded.status).toBe(400);
    expect(discarded.json).toEqual({ error: expect.any(String) });
  });

  it("scripting: EVALSHA of an unknown script answers NOSCRIPT; createScript falls back to EVAL", async () => {
    const res = await call("/", { body: ["EVALSHA", "0".repeat(40), 0] });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: expect.stringContaining("NOSCRIPT") });
    const { url, token } = target();
    const redis = new Redis({ url, token, enableAutoPipelining: false, retry: false });
    const script = redis.createScript<number>(`-- ${randomUUID()}\nreturn tonumber(ARGV[1]) * 2`);
    expect(Number(await script.exec([], ["21"]))).toBe(42);
  });

  // The read-write lock's scripts learn which of two keys exist in one command by naming one of
  // them twice (acquire-read.lua, acquire-write.lua): a key named twice must count twice.
  it("scripting: EXISTS counts a key once for each time it is named", async () => {
    const [a, b] = [key("exists-a"), key("exists-b")];
    const exists = async () =>
      (
        await call("/", {
          body: ["EVAL", "return redis.call('EXISTS', KEYS[1], KEYS[1], KEYS[2])", 2, a, b],
        })
      ).json;
    expect(await exists()).toEqual({ result: 0 });
    await call("/", { body: ["SET", b, "1", "PX", 60_000] });
    expect(await exists()).toEqual({ result: 1 });
    await call("/", { body: ["SET", a, "1", "PX", 60_000] });
    expect(await exists()).toEqual({ result: 3 });
    await call("/", { body: ["DEL", b] });
    expect(await exists()).toEqual({ result: 2 });
  });

  it("scripting: redis.call('TIME') is allowed inside a script", async () => {
    const res = await call("/", { body: ["EVAL", "return redis.call('TIME')", 0] });
    expect(res.status).toBe(200);
    const [seconds] = (res.json as { result: string[] }).result;
    expect(Number(seconds)).toBeGreaterThan(1_600_000_000);
  });

  // The replication assumptions of docs/guarantees.md ("Replication and failover"). What one
  // client can see: a writing script is accepted by EVALSHA (not refused as on a read-only
  // replica) and its write is visible at once, to the next request carrying the sync token and to
  // a reading script sent without it; EVALSHA_RO of the same script is refused. That the
  // script ran at a Global database's primary region cannot be seen from one client.
  it("replication: EVALSHA of a writing script runs and its write is read back at once", async () => {
    const k = key("evalsha-write");
    const writing = `-- ${randomUUID()}\nredis.call('SET', KEYS[1], ARGV[1]) return redis.call('GET', KEYS[1])`;
    const loaded = await call("/", { body: ["SCRIPT", "LOAD", writing] });
    expect(loaded.status).toBe(200);
    const sha = (loaded.json as { result: string }).result;
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    const ran = await call("/", { body: ["EVALSHA", sha, 1, k, "written"] });
    expect(ran).toMatchObject({ status: 200, json: { result: "written" } });
    const syncToken = ran.headers.get("upstash-sync-token") ?? "";
    const read = await call("/", {
      body: ["GET", k],
      headers: { "upstash-sync-token": syncToken },
    });
    expect(read.json).toEqual({ result: "written" });
    // A reading script by EVALSHA, with no sync token: what a recovery read relies on.
    const readSha = (
      (
        await call("/", {
          body: ["SCRIPT", "LOAD", `-- ${randomUUID()}\nreturn redis.call('GET', KEYS[1])`],
        })
      ).json as { result: string }
    ).result;
    const reading = await call("/", { body: ["EVALSHA", readSha, 1, k] });
    expect(reading.json).toEqual({ result: "written" });
  });

  it("replication: EVALSHA_RO of a writing script is refused and writes nothing", async () => {
    const k = key("evalsha-ro");
    const writing = `-- ${randomUUID()}\nreturn redis.call('SET', KEYS[1], ARGV[1])`;
    const sha = (
      (await call("/", { body: ["SCRIPT", "LOAD", writing] })).json as { result: string }
    ).result;
    const refused = await call("/", { body: ["EVALSHA_RO", sha, 1, k, "written"] });
    console.info(
      `EVALSHA_RO of a writing script answered ${refused.status}: ${JSON.stringify(refused.json)}`,
    );
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({ error: expect.any(String) });
    expect(
      (await call("/", { body: ["EVAL", "return redis.call('GET', KEYS[1])", 1, k] })).json,
    ).toEqual({
      result: null,
    });
  });

  it("replication: CONFIG GET maxmemory-policy answers a policy or is refused (recorded)", async () => {
    // client.initialize() maps either answer (a policy, or "unknown"): the core's "replication
    // assumptions" conformance suite checks the mapping on the same database.
    const res = await call("/", { body: ["CONFIG", "GET", "maxmemory-policy"] });
    console.info(`CONFIG GET maxmemory-policy answered ${res.status}: ${JSON.stringify(res.json)}`);
    if (res.status === 200) {
      expect(res.json).toEqual({ result: ["maxmemory-policy", expect.any(String)] });
    } else {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.json).toEqual({ error: expect.any(String) });
    }
  });

  it("replication: a script may write after reading TIME (scripts are replicated by their effects)", async () => {
    // Replicating the script itself would replay TIME on the replica and diverge; Redis 7 (and
    // Redis 5 and 6 by default) replicates a script's writes instead, so a write after TIME is
    // allowed. Every edgelock script reads TIME, then writes.
    const k = key("time-then-write");
    const res = await call("/", {
      body: [
        "EVAL",
        "local t = redis.call('TIME') redis.call('SET', KEYS[1], t[1]) return redis.call('GET', KEYS[1])",
        1,
        k,
      ],
    });
    expect(res.status).toBe(200);
    expect(Number((res.json as { result: string }).result)).toBeGreaterThan(1_600_000_000);
  });

  it("REST refuses the TCP-only SUBSCRIBE and MULTI sent as plain commands", async () => {
    for (const command of [["SUBSCRIBE", key("c")], ["MULTI"]]) {
      const res = await call("/", { body: command });
      expect(res.status, String(command[0])).toBe(400);
      expect(res.json, String(command[0])).toEqual({ error: expect.any(String) });
    }
  });

  it("blocking commands: the local server refuses them; report what the target does", async () => {
    // Upstash's BLPOP page says a blocking form "holds the request until data arrives or its
    // timeout expires", so Upstash may serve it; refusing is the stricter side (docs/upstash-compatibility.md).
    const res = await call("/", { body: ["BLPOP", key("l"), 1] });
    console.info(`BLPOP over REST answered ${res.status}: ${JSON.stringify(res.json)}`);
    expect([200, 400]).toContain(res.status);
  });

  it("oversized bodies are refused with a max-request-size error", async () => {
    const res = await call("/", { body: ["SET", key("big"), "x".repeat(1024 * 1024 + 16)] });
    console.info(
      `oversized body answered ${res.status}: ${JSON.stringify(res.json).slice(0, 120)}`,
    );
    expect([400, 413]).toContain(res.status);
    expect(JSON.stringify(res.json)).toMatch(/max request size/i);
  });

  it("subscribe: Server-Sent Events `data: subscribe,<ch>,1` then `data: message,<ch>,<payload>`, payload not base64; PUBLISH from a script reaches it", async () => {
    const { url, token } = target();
    const channel = key("sse");
    const controller = new AbortController();
    const res = await fetch(`${url.replace(/\/+$/, "")}/subscribe/${encodeURIComponent(channel)}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, accept: "text/event-stream", ...B64 },
      body: "[]",
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let raw = "";
    const readUntil = async (needle: string) => {
      const deadline = Date.now() + 10_000;
      while (!raw.includes(needle)) {
        if (Date.now() > deadline)
          throw new Error(`no ${JSON.stringify(needle)} in ${JSON.stringify(raw)}`);
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended: ${JSON.stringify(raw)}`);
        raw += decoder.decode(value, { stream: true });
      }
    };
    try {
      await readUntil(`data: subscribe,${channel},1\n`);
      const published = await call("/", {
        body: ["EVAL", "return redis.call('PUBLISH', KEYS[1], ARGV[1])", 1, channel, "héllo,✓"],
      });
      expect(published.json).toEqual({ result: 1 });
      await readUntil(`data: message,${channel},héllo,✓\n`);
      console.info(`SSE bytes: ${JSON.stringify(raw)}`);
    } finally {
      controller.abort();
      await reader.cancel().catch(() => undefined);
    }
  });

  it("cleans up its keys", async () => {
    const res = await call("/", {
      body: [
        "EVAL",
        "local n = 0 for _, k in ipairs(redis.call('KEYS', ARGV[1])) do n = n + redis.call('DEL', k) end return n",
        0,
        `${prefix}:*`,
      ],
    });
    expect(res.status).toBe(200);
  });
}
