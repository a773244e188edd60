import type { NodeRedisClient } from "@edgelock/testkit";

/** What `applyMemoryPressure` did. */
export interface MemoryPressure {
  /** Keys Redis evicted while the filler was written (INFO stats `evicted_keys`). */
  readonly evictedKeys: number;
  readonly fillerKeys: number;
  /** Whether every key in `until` was gone when the filler stopped. */
  readonly targetsEvicted: boolean;
}

export interface MemoryPressureOptions {
  /** The eviction policy to set. @default "volatile-ttl" (lease keys, the shortest TTLs, go first) */
  readonly policy?: string;
  /** Bytes of room above what is used now when `maxmemory` is set. @default 256 KiB */
  readonly headroomBytes?: number;
  /** Stop writing filler once these keys are all gone (e.g. a live lock's hash). @default [] */
  readonly until?: readonly string[];
  /** Stop once this many keys were evicted (when `until` is empty). @default 1 */
  readonly minEvicted?: number;
  /** Filler keys at most. @default 4000 */
  readonly maxFiller?: number;
  /** Filler key prefix (the keys get a TTL of an hour, so volatile-* policies may evict them too). */
  readonly fillerPrefix?: string;
}

const FILLER_VALUE = "x".repeat(1024);

/**
 * Eviction as a fault: sets `maxmemory` just above what the server uses and an evicting policy,
 * then writes filler keys (1 KiB each, one-hour TTL) until Redis has evicted what was asked. Under
 * `volatile-ttl` a live lock's hash (a lease of seconds) goes before the filler. Mutual exclusion
 * is not expected to survive this: the fault tells the oracle which holds were evicted
 * (docs/guarantees.md). `relieveMemoryPressure` undoes it.
 */
export async function applyMemoryPressure(
  admin: NodeRedisClient,
  options: MemoryPressureOptions = {},
): Promise<MemoryPressure> {
  const policy = options.policy ?? "volatile-ttl";
  const until = options.until ?? [];
  const minEvicted = options.minEvicted ?? 1;
  const prefix = options.fillerPrefix ?? "edgelock-campaign:filler";
  const before = await evictedKeys(admin);
  const used = /^used_memory:(\d+)/m.exec(String(await admin.sendCommand(["INFO", "memory"])));
  const limit = Number(used?.[1] ?? 0) + (options.headroomBytes ?? 256 * 1024);
  await admin.sendCommand(["CONFIG", "SET", "maxmemory-policy", policy]);
  await admin.sendCommand(["CONFIG", "SET", "maxmemory", String(limit)]);
  const done = async () =>
    until.length > 0
      ? (await admin.sendCommand<number>(["EXISTS", ...until])) === 0
      : (await evictedKeys(admin)) - before >= minEvicted;
  let filler = 0;
  while (filler < (options.maxFiller ?? 4_000) && !(await done())) {
    await admin.sendCommand(["SET", `${prefix}:${filler}`, FILLER_VALUE, "PX", "3600000"]);
    filler++;
  }
  return {
    evictedKeys: (await evictedKeys(admin)) - before,
    fillerKeys: filler,
    targetsEvicted:
      until.length > 0 && (await admin.sendCommand<number>(["EXISTS", ...until])) === 0,
  };
}

/**
 * Lifts the limit, restores `noeviction` (unless `keepPolicy`: a server configured to evict, whose
 * limit is merely not reached any more) and deletes the filler.
 */
export async function relieveMemoryPressure(
  admin: NodeRedisClient,
  fillerPrefix = "edgelock-campaign:filler",
  keepPolicy = false,
): Promise<void> {
  await admin.sendCommand(["CONFIG", "SET", "maxmemory", "0"]);
  if (!keepPolicy) await admin.sendCommand(["CONFIG", "SET", "maxmemory-policy", "noeviction"]);
  let cursor = "0";
  do {
    const [next, keys] = await admin.sendCommand<[string, string[]]>([
      "SCAN",
      cursor,
      "MATCH",
      `${fillerPrefix}:*`,
      "COUNT",
      "1000",
    ]);
    if (keys.length > 0) await admin.sendCommand(["UNLINK", ...keys]);
    cursor = next;
  } while (cursor !== "0");
}

async function evictedKeys(admin: NodeRedisClient): Promise<number> {
  const stats = String(await admin.sendCommand(["INFO", "stats"]));
  return Number(/^evicted_keys:(\d+)/m.exec(stats)?.[1] ?? 0);
}
