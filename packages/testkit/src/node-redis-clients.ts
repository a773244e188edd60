import { createClient, createCluster, type RedisClientType, type RedisClusterType } from "redis";

/** The node-redis client type `makeNodeRedis` returns (RESP2, default modules). */
export type NodeRedisClient = RedisClientType;

/** The node-redis cluster client type `makeNodeRedisCluster` returns (RESP2, default modules). */
export type NodeRedisCluster = RedisClusterType;

// Type arguments given (node-redis's own defaults, spelt `{}` as node-redis does: an alias makes
// another type), so that createClient/createCluster return the very types named above. Inferred
// ones make other instantiations of node-redis's generic client types, which TypeScript then
// relates to these for seconds in every program that includes this file.
function create(url: string): NodeRedisClient {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  return createClient<{}, {}, {}, 2, {}>({ url });
}

const clients = new Set<NodeRedisClient>();
const clusters = new Set<NodeRedisCluster>();

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

/**
 * A connected node-redis cluster client (`createCluster`) over the nodes at `urls`, tracked for
 * `closeAll()`. It follows MOVED and ASK redirections itself; errors are swallowed as above.
 */
export async function makeNodeRedisCluster(urls: readonly string[]): Promise<NodeRedisCluster> {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- as in create() above
  const cluster: NodeRedisCluster = createCluster<{}, {}, {}, 2, {}>({
    rootNodes: urls.map((url) => ({ url })),
    RESP: 2,
  });
  cluster.on("error", () => undefined);
  clusters.add(cluster);
  try {
    await cluster.connect();
  } catch (error) {
    clusters.delete(cluster);
    closeQuietly(cluster);
    throw error;
  }
  return cluster;
}

/** Closes every client `makeNodeRedis` and `makeNodeRedisCluster` made (already closed ones are skipped). */
export function closeAll(): Promise<void> {
  for (const client of [...clients, ...clusters]) closeQuietly(client);
  clients.clear();
  clusters.clear();
  return Promise.resolve();
}

function closeQuietly(client: NodeRedisClient | NodeRedisCluster): void {
  try {
    if (client.isOpen) client.destroy();
  } catch {
    // already closed
  }
}
