import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { RedisStartError, TestkitError } from "../errors.ts";
import { freePort } from "../free-port.ts";
import { removeDir, trackDir } from "./process-registry.ts";
import { REDIS_LOG_FILE } from "./redis-args.ts";
import { spawnRedis, type RedisServer } from "./spawn-redis.ts";
import { terminate } from "./terminate.ts";

export interface StartRedisOptions {
  /**
   * Append-only file with `appendfsync always`: `restart()` and `kill()` + `restart()` keep every
   * acknowledged write. Without it every restart comes back empty.
   * @default false
   */
  readonly persistence?: boolean;
  /**
   * More redis-server arguments (`["--name", "value", …]`), used again by every `restart()`.
   * @default []
   */
  readonly args?: readonly string[];
  /** More environment variables for the server process, used again by every `restart()`. */
  readonly env?: Readonly<Record<string, string>>;
}

export interface RestartOptions {
  /** Delete the data files first, so the server comes back empty. @default false */
  readonly flush?: boolean;
}

/** A redis-server of the caller's own, on a free port in its own temp dir. */
export interface RedisProcess {
  /** `redis://127.0.0.1:PORT` */
  readonly url: string;
  readonly port: number;
  /** The temp dir holding the data files and `redis.log`. */
  readonly dir: string;
  readonly persistence: boolean;
  /** True while the server process is running. */
  readonly running: boolean;
  /** Graceful shutdown (SIGTERM) and removal of the temp dir. Final; idempotent. */
  stop(): Promise<void>;
  /** SIGKILL, like a crash; the dir stays, so `restart()` brings the server back. */
  kill(): Promise<void>;
  /** Graceful shutdown if running, then start again on the same port; resolves once it answers. */
  restart(options?: RestartOptions): Promise<void>;
}

const PORT_ATTEMPTS = 5;
const SAME_PORT_ATTEMPTS = 40;
const SAME_PORT_RETRY_MS = 50;

/** Starts a new redis-server on a free port (retrying on a collision) in a new temp dir. */
export async function startRedis(options: StartRedisOptions = {}): Promise<RedisProcess> {
  const persistence = options.persistence ?? false;
  const extra = options.args ?? [];
  const env = options.env;
  const dir = mkdtempSync(join(tmpdir(), "edgelock-redis-"));
  trackDir(dir);
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      const server = await spawnRedis({ port, dir, persistence, extra, env });
      return new RedisHandle(port, dir, persistence, server, extra, env);
    } catch (error) {
      if (!(error instanceof RedisStartError && error.portInUse) || attempt >= PORT_ATTEMPTS) {
        removeDir(dir);
        throw error;
      }
    }
  }
}

class RedisHandle implements RedisProcess {
  readonly url: string;
  private server: RedisServer | null;
  private stopped = false;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly port: number,
    readonly dir: string,
    readonly persistence: boolean,
    server: RedisServer,
    private readonly extra: readonly string[],
    private readonly env: Readonly<Record<string, string>> | undefined,
  ) {
    this.url = `redis://127.0.0.1:${port}`;
    this.server = server;
  }

  get running(): boolean {
    const child = this.server?.child;
    return child !== undefined && child.exitCode === null && child.signalCode === null;
  }

  stop(): Promise<void> {
    return this.serial(async () => {
      if (this.stopped) return;
      this.stopped = true;
      if (this.server) await terminate(this.server, "SIGTERM");
      this.server = null;
      removeDir(this.dir);
    });
  }

  kill(): Promise<void> {
    return this.serial(async () => {
      if (this.server) await terminate(this.server, "SIGKILL");
    });
  }

  restart(options: RestartOptions = {}): Promise<void> {
    return this.serial(async () => {
      if (this.stopped)
        throw new TestkitError(
          "redis-stopped",
          `redis on port ${this.port} was stopped; start a new one`,
        );
      if (this.server) await terminate(this.server, "SIGTERM");
      this.server = null;
      if (options.flush) clearDataFiles(this.dir);
      this.server = await this.spawnOnSamePort();
    });
  }

  private async spawnOnSamePort(): Promise<RedisServer> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await spawnRedis({
          port: this.port,
          dir: this.dir,
          persistence: this.persistence,
          extra: this.extra,
          env: this.env,
        });
      } catch (error) {
        // Another socket may hold the port for a moment (e.g. an outgoing connection's local port).
        if (!(error instanceof RedisStartError && error.portInUse) || attempt >= SAME_PORT_ATTEMPTS)
          throw error;
        await sleep(SAME_PORT_RETRY_MS);
      }
    }
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task);
    this.queue = result.catch(() => undefined);
    return result;
  }
}

function clearDataFiles(dir: string): void {
  for (const entry of readdirSync(dir)) {
    if (entry !== REDIS_LOG_FILE) rmSync(join(dir, entry), { recursive: true, force: true });
  }
}
