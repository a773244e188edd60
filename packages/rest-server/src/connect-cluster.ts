import { createCluster } from "redis";
import { clusterRedisClient } from "./cluster-client.ts";
import { DEFAULT_CONNECT_TIMEOUT_MS, redactUrl, type OwnedRedisClient } from "./connect.ts";

/**
 * Connects a node-redis cluster client through the node at `url` (it discovers the others) and
 * wraps it for the app ({@link clusterRedisClient}). As {@link connectRedis}: the first connection
 * fails fast, later reconnects are quick, and there is no client handshake.
 */
export async function connectRedisCluster(
  url: string,
  connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS,
): Promise<OwnedRedisClient> {
  const cluster = createCluster({
    rootNodes: [{ url }],
    defaults: {
      disableClientInfo: true,
      socket: {
        connectTimeout: connectTimeoutMs,
        reconnectStrategy: (retries) => Math.min(50 * (retries + 1), 500),
      },
    },
  });
  cluster.on("error", () => undefined);
  let timer: NodeJS.Timeout | undefined;
  // Typed `unknown`: racing the cluster client's own type costs TypeScript seconds per program.
  const connecting: Promise<unknown> = cluster.connect();
  try {
    await Promise.race([
      connecting,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${connectTimeoutMs} ms`)),
          connectTimeoutMs,
        );
      }),
    ]);
  } catch (error) {
    connecting.catch(() => undefined);
    destroyQuietly(cluster);
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`cannot connect to Redis Cluster at ${redactUrl(url)}: ${reason}`, {
      cause: error,
    });
  } finally {
    clearTimeout(timer);
  }
  const client = clusterRedisClient(cluster);
  return {
    sendCommand: client.sendCommand,
    duplicate: client.duplicate,
    destroy: () => destroyQuietly(cluster),
    get isOpen() {
      return cluster.isOpen;
    },
  };
}

function destroyQuietly(cluster: { destroy(): unknown }): void {
  try {
    void Promise.resolve(cluster.destroy()).catch(() => undefined);
  } catch {
    // already closed
  }
}
