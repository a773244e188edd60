import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { queryReadiness } from "../src/redis/redis-info.ts";
import { processAlive } from "./support/process-alive.ts";

const root = join(import.meta.dirname, "../../..");
const fixture = join(import.meta.dirname, "fixtures/hold-redis.ts");

/** Starts the fixture in a process of its own; resolves its pid, its redis-server's pid and dir. */
async function holdRedis(): Promise<{ holder: number; redis: number; dir: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", fixture], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const { port, dir } = await new Promise<{ port: number; dir: string }>((resolve, reject) => {
    child.stdout.once("data", (chunk: Buffer) =>
      resolve(JSON.parse(chunk.toString()) as { port: number; dir: string }),
    );
    child.once("exit", (code) => reject(new Error(`fixture exited with ${code}`)));
  });
  const info = await queryReadiness(port);
  if (info === null || child.pid === undefined)
    throw new Error("fixture's redis-server does not answer");
  return { holder: child.pid, redis: info.pid, dir };
}

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (!processAlive(pid)) return true;
    if (Date.now() >= deadline) return false;
    await sleep(25);
  }
}

describe("no orphaned redis-server", () => {
  for (const signal of ["SIGTERM", "SIGINT", "SIGKILL"] as const) {
    it(`when the process that started it gets ${signal}`, async () => {
      const { holder, redis, dir } = await holdRedis();
      expect(await gone(redis, 0)).toBe(false);
      expect(existsSync(dir)).toBe(true);
      process.kill(holder, signal);
      expect(await gone(holder, 5_000)).toBe(true);
      expect(await gone(redis, 5_000)).toBe(true);
      await expect.poll(() => existsSync(dir), { timeout: 5_000 }).toBe(false);
    });
  }
});
