import { createClient as createEdgelock } from "@edgelock/core";
import { createClient as createNodeRedis } from "redis";
import type { LockLibrary } from "./types.ts";

/**
 * edgelock over TCP (a node-redis client, the TCP backend), for the saturation scenario beside
 * the TCP peers: the same scripts and protocol as over REST, without the HTTP hop.
 */
export const edgelockTcpLibrary: LockLibrary = {
  name: "edgelock (TCP)",
  transport: "tcp",
  settings: "node-redis backend, defaults",
  async worker(env) {
    const redis = createNodeRedis({ url: env.proxyUrl });
    await redis.connect();
    const client = createEdgelock({ redis });
    return {
      async acquire({ waitMs, leaseMs, name = env.name }) {
        const held = await client
          .lock(name)
          .acquire(leaseMs === undefined ? { waitMs } : { waitMs, leaseMs });
        return { signal: held.signal, release: () => held.release() };
      },
      close: async () => {
        await client.settled();
        await redis.quit();
      },
    };
  },
};
