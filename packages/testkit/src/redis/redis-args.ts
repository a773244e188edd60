import { join } from "node:path";

export interface RedisArgsOptions {
  readonly port: number;
  readonly dir: string;
  /** Append-only file with `appendfsync always`, so a restart (even after SIGKILL) reloads every write. */
  readonly persistence: boolean;
  /** More `--name value` arguments, after ours (e.g. the cluster settings of `startCluster`). */
  readonly extra?: readonly string[] | undefined;
  /** More environment variables for the server process (e.g. an `LD_PRELOAD` that steps its clock). */
  readonly env?: Readonly<Record<string, string>> | undefined;
}

export const REDIS_LOG_FILE = "redis.log";

/** Command-line arguments of a throwaway redis-server: loopback only, no RDB snapshots. */
export function redisArgs(options: RedisArgsOptions): string[] {
  const settings: [name: string, value: string][] = [
    ["port", String(options.port)],
    ["bind", "127.0.0.1"],
    ["dir", options.dir],
    ["logfile", join(options.dir, REDIS_LOG_FILE)],
    ["save", ""],
    ["appendonly", options.persistence ? "yes" : "no"],
    ...(options.persistence ? [["appendfsync", "always"] as [string, string]] : []),
    ["daemonize", "no"],
  ];
  return [...settings.flatMap(([name, value]) => [`--${name}`, value]), ...(options.extra ?? [])];
}
