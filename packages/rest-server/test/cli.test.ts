import { spawn } from "node:child_process";
import { createServer, type Server, type Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startRedis, type RedisProcess } from "./redis-process.ts";

// The CLI as a user runs it: a child process, judged by its output and exit code.
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const TOKEN = "cli-secret-token-value";
const CLEAN_ENV = Object.fromEntries(
  Object.entries(process.env).filter(
    ([name]) =>
      !["REDIS_URL", "PORT", "HOST", "EDGELOCK_REST_TOKEN", "UPSTASH_REDIS_REST_TOKEN"].includes(
        name,
      ),
  ),
);

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI; `until` ends it with SIGTERM once stdout matches. */
function runCli(
  args: string[],
  options: { env?: Record<string, string>; until?: RegExp } = {},
): Promise<Run & { url?: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli.ts", ...args], {
      cwd: packageDir,
      env: { ...CLEAN_ENV, ...options.env },
    });
    let stdout = "";
    let stderr = "";
    let url: string | undefined;
    const killer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = options.until?.exec(stdout);
      if (match !== null && match !== undefined && url === undefined) {
        url = match[1] ?? match[0];
        // Prove the server answers before stopping it.
        fetch(`${url}/ping`, { headers: { authorization: `Bearer ${TOKEN}` } })
          .then((res) => res.json())
          .then((body) => {
            stdout += `\nPING -> ${JSON.stringify(body)}\n`;
            child.kill("SIGTERM");
          }, reject);
      }
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr, ...(url !== undefined && { url }) });
    });
  });
}

let redis: RedisProcess;
let busy: Server;
const sockets = new Set<Socket>();
let busyPort: number;
beforeAll(async () => {
  redis = await startRedis();
  // Something that is not Redis: it accepts connections and answers like an HTTP server.
  busy = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
    socket.end("HTTP/1.1 400 Bad Request\r\n\r\n");
  });
  await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
  busyPort = (busy.address() as { port: number }).port;
});
afterAll(async () => {
  await redis?.stop();
  // Half-closed sockets can linger on this side after the CLI exits; close() would wait for them.
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => busy?.close(resolve));
});

describe("edgelock-rest-server CLI", () => {
  it("prints where it listens (never the token), serves, and exits 0 on SIGTERM", async () => {
    const run = await runCli(["--redis-url", redis.url, "--port", "0", "--token", TOKEN], {
      until: /listening on (http:\/\/127\.0\.0\.1:\d+)/,
    });
    expect(run.stdout).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(run.stdout).toContain('PING -> {"result":"PONG"}');
    expect(run.stdout + run.stderr).not.toContain(TOKEN);
    expect(run.code).toBe(0);
  });

  it("reads the Redis URL, port and token from the environment", async () => {
    const port = await freePort();
    const run = await runCli([], {
      env: { REDIS_URL: redis.url, PORT: String(port), UPSTASH_REDIS_REST_TOKEN: TOKEN },
      until: new RegExp(`listening on (http://127\\.0\\.0\\.1:${port})`),
    });
    expect(run.stdout).toContain('PING -> {"result":"PONG"}');
    expect(run.code).toBe(0);
  });

  it("prints usage for --help", async () => {
    const run = await runCli(["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("--redis-url");
  });

  it("rejects an unknown flag with a message and a non-zero exit", async () => {
    const run = await runCli(["--token", TOKEN, "--bogus"]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/--bogus/);
  });

  it("refuses to start without a token", async () => {
    const run = await runCli(["--redis-url", redis.url]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/token is required/);
  });

  it("fails quickly with a message when Redis is unreachable", async () => {
    const nothing = await freePort();
    const run = await runCli([
      "--redis-url",
      `redis://127.0.0.1:${nothing}`,
      "--port",
      "0",
      "--token",
      TOKEN,
    ]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/cannot connect to Redis/);
  });

  it("fails quickly with a message when something other than Redis answers", async () => {
    const run = await runCli([
      "--redis-url",
      `redis://127.0.0.1:${busyPort}`,
      "--port",
      "0",
      "--token",
      TOKEN,
    ]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/cannot connect to Redis/);
  });

  it("fails with a message when the port is in use", async () => {
    const run = await runCli([
      "--redis-url",
      redis.url,
      "--port",
      String(busyPort),
      "--token",
      TOKEN,
    ]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/already in use/);
  });
});
