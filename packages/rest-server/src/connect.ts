import { createClient } from "redis";
import type { RestRedisClient } from "./options.ts";

/** How long the first connection may take before giving up, in milliseconds. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 3_000;

/** A node-redis client {@link connectRedis} made, which its caller must close. */
export type OwnedRedisClient = RestRedisClient & { destroy(): void; readonly isOpen: boolean };

/**
 * Connects a node-redis client that fails fast the first time (a wrong URL must not retry
 * forever) but, once connected, reconnects quickly after Redis restarts. Commands issued while
 * disconnected fail at once (no offline queue), so a request during an outage gets a 503 rather
 * than waiting silently.
 */
export async function connectRedis(url: string, connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS): Promise<OwnedRedisClient> {
  let connected = false;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: connectTimeoutMs,
      reconnectStrategy: (retries, cause) => (connected ? Math.min(50 * (retries + 1), 500) : cause),
    },
  });
  // node-redis emits 'error' for every failed reconnect attempt; an unhandled one would crash.
  client.on("error", () => undefined);
  try {
    await client.connect();
  } catch (error) {
    // A failed first connect may already have closed the client; destroy() then throws.
    if (client.isOpen) client.destroy();
    throw new Error(`cannot connect to Redis at ${redactUrl(url)}: ${(error as Error).message}`, { cause: error });
  }
  connected = true;
  return client;
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.toString();
  } catch {
    return "<invalid URL>";
  }
}
