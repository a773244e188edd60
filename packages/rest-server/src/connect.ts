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
export async function connectRedis(
  url: string,
  connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS,
): Promise<OwnedRedisClient> {
  let connected = false;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    // No CLIENT SETINFO handshake. node-redis 5.9 ends a reconnection "ready" on a dead socket
    // (and hangs every later command) when the socket fails during the handshake, which happens
    // when Redis restarts; without handshake commands it is ready before any such failure, and
    // a failure after ready triggers a proper reconnect.
    disableClientInfo: true,
    socket: {
      connectTimeout: connectTimeoutMs,
      reconnectStrategy: (retries, cause) =>
        connected ? Math.min(50 * (retries + 1), 500) : cause,
    },
  });
  // node-redis emits 'error' for every failed reconnect attempt; an unhandled one would crash.
  client.on("error", () => undefined);
  try {
    await startUp(client, connectTimeoutMs);
  } catch (error) {
    // A failed first connect may already have closed the client; destroy() then throws.
    if (client.isOpen) client.destroy();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`cannot connect to Redis at ${redactUrl(url)}: ${reason}`, { cause: error });
  }
  connected = true;
  return client;
}

/**
 * The part of a node-redis client {@link startUp} uses. Structural: relating the client to
 * `ReturnType<typeof createClient>` instead (another instantiation of node-redis's generic client
 * type) costs TypeScript seconds in every program that includes this file.
 */
interface StartingClient {
  connect(): Promise<unknown>;
  sendCommand(args: string[]): Promise<unknown>;
  once(event: "error", listener: (error: Error) => void): unknown;
  off(event: "error", listener: (error: Error) => void): unknown;
}

// Connect and PING, failing on the first client error or after the timeout. The first error
// matters because a TCP connect proves little (a proxy or another service may accept it), and
// node-redis may then neither answer nor reject the pending command.
async function startUp(client: StartingClient, timeoutMs: number): Promise<void> {
  let onError: (error: Error) => void = () => undefined;
  let timer: NodeJS.Timeout | undefined;
  const failure = new Promise<never>((_, reject) => {
    onError = (error) => reject(new Error(`${error.message} (is a Redis server listening there?)`));
    client.once("error", onError);
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  const ready = (async () => {
    await client.connect();
    const pong: unknown = await client.sendCommand(["PING"]);
    if (pong !== "PONG") throw new Error(`unexpected answer to PING: ${String(pong)}`);
  })();
  try {
    await Promise.race([ready, failure]);
  } finally {
    clearTimeout(timer);
    client.off("error", onError);
    ready.catch(() => undefined);
    failure.catch(() => undefined);
  }
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
