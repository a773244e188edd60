import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAuthorized } from "../src/auth.ts";
import { createApp, type RestApp } from "../src/index.ts";
import { startRedis, type RedisProcess } from "./redis-process.ts";
import { uniqueKey } from "./support.ts";

// Security review of the rest-server (docs/security.md): the token guards every endpoint, is
// compared in constant time and never logged; owner ids never reach a log; bodies are bounded;
// fault injection exists only when asked for.

const TOKEN = `tok-${randomBytes(16).toString("hex")}`;
const OWNER = randomBytes(16).toString("base64url"); // an owner id, as core's randomId() makes them
const CHANNEL = `edgelock:v1:{orders:42}:w:${OWNER}`; // where that owner waits for its grant

let redisProcess: RedisProcess;
let redis: ReturnType<typeof createClient>;
const lines: string[] = [];
let rest: RestApp;
let faultless: RestApp;
beforeAll(async () => {
  redisProcess = await startRedis();
  redis = createClient({ url: redisProcess.url });
  await redis.connect();
  rest = createApp({
    redis,
    token: TOKEN,
    enableFaults: true,
    maxBodyBytes: 1_024,
    log: (l) => lines.push(l),
  });
  faultless = createApp({ redis, token: TOKEN });
});
afterAll(async () => {
  await rest?.close();
  await faultless?.close();
  redis?.destroy();
  await redisProcess?.stop();
});

const request = (
  app: RestApp,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: BodyInit } = {},
) =>
  app.app.request(path, {
    method: init.method ?? "POST",
    headers: init.headers ?? {},
    ...(init.body !== undefined && { body: init.body }),
  });

const WRONG: Record<string, string>[] = [
  {},
  { authorization: "Bearer" },
  { authorization: "Bearer wrong" },
  { authorization: `Bearer ${TOKEN}x` },
  { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
  { authorization: `Bearer ${TOKEN.toUpperCase()}` },
  { authorization: TOKEN },
  { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString("base64")}` },
];

describe("rest-server security", () => {
  it("answers 401 to a missing or wrong token on every endpoint, and runs nothing", async () => {
    const key = uniqueKey("unauth");
    const paths = [
      "/",
      "/pipeline",
      "/multi-exec",
      `/set/${key}/v`,
      `/subscribe/${CHANNEL}`,
      "/__edgelock/stats",
      "/__edgelock/faults",
      "/__edgelock/flush-scripts",
    ];
    for (const headers of WRONG) {
      for (const path of paths) {
        const res = await request(rest, path, { headers, body: JSON.stringify(["SET", key, "v"]) });
        expect(res.status, `${path} with ${JSON.stringify(headers)}`).toBe(401);
      }
      expect(
        (await request(rest, `/?_token=${TOKEN}x`, { headers, body: '["PING"]' })).status,
      ).toBe(401);
    }
    expect(await redis.exists(key)).toBe(0);
    expect(
      (
        await request(rest, "/", {
          headers: { authorization: `Bearer ${TOKEN}` },
          body: '["PING"]',
        })
      ).status,
    ).toBe(200);
    expect((await request(rest, `/?_token=${TOKEN}`, { body: '["PING"]' })).status).toBe(200);
  });

  it("compares tokens through fixed-size digests, so any length is safe to compare", () => {
    // timingSafeEqual on raw strings throws on a length mismatch; digests have one length.
    for (const presented of ["", "a", TOKEN, `${TOKEN}${TOKEN}`, "é".repeat(300)]) {
      const req = new Request("http://x/", { headers: { authorization: `Bearer ${presented}` } });
      expect(isAuthorized(req, TOKEN)).toBe(presented === TOKEN);
    }
  });

  it("refuses oversized bodies with 413, declared or streamed, before reading them whole", async () => {
    const headers = { authorization: `Bearer ${TOKEN}` };
    const big = JSON.stringify(["SET", uniqueKey("big"), "x".repeat(2_000)]);
    expect((await request(rest, "/", { headers, body: big })).status).toBe(413);
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode("x".repeat(500)));
        controller.close();
      },
    });
    const streamed = await rest.app.request("/", {
      method: "POST",
      headers,
      body: chunks,
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(
      (
        await request(rest, "/__edgelock/faults", {
          headers,
          body: JSON.stringify([{ kind: "hang", match: "x".repeat(2_000) }]),
        })
      ).status,
    ).toBe(413);
  });

  it("serves no fault control unless enableFaults was given", async () => {
    const headers = { authorization: `Bearer ${TOKEN}` };
    expect(
      (await request(faultless, "/__edgelock/faults", { headers, body: '{"kind":"fail-before"}' }))
        .status,
    ).toBe(404);
    expect(
      (await request(faultless, "/__edgelock/faults", { method: "GET", headers })).status,
    ).toBe(404);
    expect((await request(faultless, "/__edgelock/flush-scripts", { headers })).status).toBe(404);
    await expect(faultless.faults.add({ kind: "fail-before" })).rejects.toThrow();
    expect((await request(faultless, "/", { headers, body: '["PING"]' })).status).toBe(200);
  });

  it("logs neither the token nor an owner id nor a path command's arguments", async () => {
    lines.length = 0;
    const auth = { authorization: `Bearer ${TOKEN}` };
    const secretValue = `value-${OWNER}`;
    await request(rest, `/?_token=${TOKEN}`, { body: '["PING"]' });
    await request(rest, `/set/${uniqueKey("k")}/${secretValue}`, { headers: auth });
    await request(rest, "/", { headers: { authorization: `Bearer ${TOKEN}x` }, body: '["PING"]' });
    await rest.faults.add({ kind: "fail-before", match: "PING" });
    await request(rest, "/", { headers: auth, body: '["PING"]' });
    const stream = await request(rest, `/subscribe/${CHANNEL}`, { headers: auth, body: "[]" });
    await stream.body?.cancel();
    expect(lines.length).toBeGreaterThanOrEqual(5);
    const all = lines.join("\n");
    for (const secret of [TOKEN, OWNER, secretValue]) expect(all).not.toContain(secret);
    expect(all).toContain("/subscribe/…");
  });

  it("the CLI with --verbose prints no token and no owner id", async () => {
    const dir = fileURLToPath(new URL("..", import.meta.url));
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "src/cli.ts",
        "--verbose",
        "--port",
        "0",
        "--redis-url",
        redisProcess.url,
        "--token",
        TOKEN,
      ],
      {
        cwd: dir,
        env: { ...process.env, EDGELOCK_REST_TOKEN: "", UPSTASH_REDIS_REST_TOKEN: "" },
      },
    );
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    const exited = new Promise((resolve) => child.on("exit", resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 20_000);
        child.stdout.on("data", () => {
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
      });
      await fetch(`${url}/?_token=${TOKEN}`, { method: "POST", body: '["PING"]' });
      await fetch(`${url}/`, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}` },
        body: '["PING"]',
      });
      await fetch(`${url}/`, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}-wrong` },
        body: '["PING"]',
      });
      const controller = new AbortController();
      const sub = await fetch(`${url}/subscribe/${encodeURIComponent(CHANNEL)}`, {
        headers: { authorization: `Bearer ${TOKEN}` },
        signal: controller.signal,
      });
      expect(sub.status).toBe(200);
      controller.abort();
      await new Promise((r) => setTimeout(r, 200)); // let the last log lines out
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
    expect(out).toContain("POST / 200");
    expect(out).not.toContain(TOKEN);
    expect(out).not.toContain(OWNER);
  });
});
