import { createClient, type RedisClientType } from "redis";

/** The node-redis client type `makeNodeRedis` returns (RESP2, default modules). */
export type NodeRedisClient = RedisClientType;

function create(url: string): NodeRedisClient {
  return createClient({ url });
}

const clients = new Set<NodeRedisClient>();

/**
 * A connected node-redis client, tracked for `closeAll()`. Connection errors (a test restarting
 * Redis) are swallowed by an `error` listener; the client reconnects on its own and queues commands.
 */
export async function makeNodeRedis(url: string): Promise<NodeRedisClient> {
  const client = create(url);
  client.on("error", () => undefined);
  clients.add(client);
  try {
    await client.connect();
  } catch (error) {
    clients.delete(client);
    closeQuietly(client);
    throw error;
  }
  return client;
}

/** Closes every client `makeNodeRedis` made (already closed ones are skipped). */
export function closeAll(): Promise<void> {
  for (const client of clients) closeQuietly(client);
  clients.clear();
  return Promise.resolve();
}

function closeQuietly(client: NodeRedisClient): void {
  try {
    if (client.isOpen) client.destroy();
  } catch {
    // already closed
  }
}
