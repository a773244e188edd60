import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { RedisStartError } from "../errors.ts";
import { trackProcess } from "./process-registry.ts";
import { REDIS_LOG_FILE, redisArgs, type RedisArgsOptions } from "./redis-args.ts";
import { queryReadiness } from "./redis-info.ts";

/** One running redis-server process. */
export interface RedisServer {
  readonly child: ChildProcess;
  /** Resolves when the process has exited (never rejects). */
  readonly exited: Promise<void>;
}

export const REDIS_START_TIMEOUT_MS = 10_000;
const POLL_MS = 10;

/**
 * Spawns redis-server and resolves once *this* process (checked by pid, so a stranger on the
 * port does not count) answers `INFO` with its data loaded. Throws `RedisStartError` (with
 * `portInUse`) if it exits first or does not get ready in time.
 */
export async function spawnRedis(options: RedisArgsOptions): Promise<RedisServer> {
  const logFile = join(options.dir, REDIS_LOG_FILE);
  writeFileSync(logFile, "");
  const env = options.env === undefined ? undefined : { ...process.env, ...options.env };
  const child = spawn("redis-server", redisArgs(options), {
    stdio: "ignore",
    cwd: options.dir,
    ...(env === undefined ? {} : { env }),
  });
  let exitedNow = false;
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.once("error", () => resolve());
  }).then(() => {
    exitedNow = true;
  });
  let spawnError: Error | undefined;
  child.once("error", (error) => (spawnError = error));
  trackProcess(child, options.dir);
  child.unref();

  const deadline = Date.now() + REDIS_START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exitedNow) {
      const reason = spawnError
        ? `spawn failed: ${spawnError.message}`
        : `exited with ${child.exitCode ?? child.signalCode}`;
      throw new RedisStartError(options.port, logTail(logFile), reason);
    }
    const ready = await queryReadiness(options.port);
    if (ready !== null && ready.pid === child.pid && ready.loaded) return { child, exited };
    await sleep(POLL_MS);
  }
  child.kill("SIGKILL");
  await exited;
  throw new RedisStartError(
    options.port,
    logTail(logFile),
    `not ready within ${REDIS_START_TIMEOUT_MS} ms`,
  );
}

function logTail(file: string): string {
  if (!existsSync(file)) return "(no log)";
  return readFileSync(file, "utf8").split("\n").slice(-15).join("\n");
}
