import type { NodeRedisClient } from "@edgelock/testkit";

/** What the soak measures of its own Redis: keys, memory, live pub/sub channels. */
export interface RedisState {
  readonly keys: number;
  readonly usedMemory: number;
  readonly channels: number;
}

export async function measure(redis: NodeRedisClient): Promise<RedisState> {
  const info = String(await redis.sendCommand(["INFO", "memory"]));
  const usedMemory = Number(/^used_memory:(\d+)/m.exec(info)?.[1] ?? Number.NaN);
  const channels = ((await redis.sendCommand(["PUBSUB", "CHANNELS"])) as unknown[]).length;
  return { keys: await redis.dbSize(), usedMemory, channels };
}

/** Every key, by SCAN; visiting a key also drops it if it has expired (Redis expires lazily too). */
export async function allKeys(redis: NodeRedisClient): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = (await redis.sendCommand(["SCAN", cursor, "COUNT", "1000"])) as [
      string,
      string[],
    ];
    cursor = next;
    keys.push(...batch);
  } while (cursor !== "0");
  return keys.sort();
}

/**
 * Waits until only `permanent` keys remain (every TTL has run out and Redis has reclaimed the
 * keys); resolves with what is left either way, so a failure shows the leaked keys.
 */
export async function drain(
  redis: NodeRedisClient,
  permanent: ReadonlySet<string>,
  timeoutMs: number,
): Promise<string[]> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const keys = await allKeys(redis);
    if (keys.every((k) => permanent.has(k)) || performance.now() > deadline) return keys;
    await new Promise((r) => setTimeout(r, 250));
  }
}
