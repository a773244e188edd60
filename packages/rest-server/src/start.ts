import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { createApp, type RestApp } from "./app.ts";
import { connectRedis, type OwnedRedisClient } from "./connect.ts";
import { connectRedisCluster } from "./connect-cluster.ts";

/** Options of {@link startRestServer}. */
export interface StartRestServerOptions {
  /** Where Redis listens, e.g. `redis://127.0.0.1:6379`; with `cluster`, any node of the cluster. */
  readonly redisUrl: string;
  /**
   * `redisUrl` is a node of a Redis Cluster: discover the others and route each command by its
   * key (see `clusterRedisClient`). `/multi-exec` is then refused.
   * @default false
   */
  readonly cluster?: boolean;
  /** The bearer token clients must present. Non-empty. */
  readonly token: string;
  /**
   * TCP port; 0 picks a free one.
   * @default 0
   */
  readonly port?: number;
  /** @default "127.0.0.1" */
  readonly host?: string;
  /** @default false */
  readonly enableFaults?: boolean;
  /** @default 1048576 (1 MiB) */
  readonly maxBodyBytes?: number;
  /** Request log lines (never containing the token). @default undefined (silent) */
  readonly log?: (line: string) => void;
}

/** A listening server. */
export interface RunningRestServer {
  /** `http://HOST:PORT`, what `@upstash/redis` takes as `url`. */
  readonly url: string;
  readonly port: number;
  readonly rest: RestApp;
  /** Closes the server, its subscriber connections and its Redis client, without waiting on idle keep-alive sockets. */
  close(): Promise<void>;
}

export const DEFAULT_START_OPTIONS = Object.freeze({ port: 0, host: "127.0.0.1" });

/** Connects to Redis, then serves the REST app on `host:port`. */
export async function startRestServer(options: StartRestServerOptions): Promise<RunningRestServer> {
  const port = options.port ?? DEFAULT_START_OPTIONS.port;
  const host = options.host ?? DEFAULT_START_OPTIONS.host;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new TypeError(
      `startRestServer: port must be an integer from 0 to 65535, got ${String(port)}`,
    );
  }
  if (typeof options.token !== "string" || options.token.length === 0) {
    throw new TypeError("startRestServer: token must be a non-empty string");
  }
  const redis =
    options.cluster === true
      ? await connectRedisCluster(options.redisUrl)
      : await connectRedis(options.redisUrl);
  let rest: RestApp;
  let server: Server;
  try {
    rest = createApp({
      redis,
      token: options.token,
      ...(options.enableFaults !== undefined && { enableFaults: options.enableFaults }),
      ...(options.maxBodyBytes !== undefined && { maxBodyBytes: options.maxBodyBytes }),
      ...(options.log !== undefined && { log: options.log }),
    });
    const listener = getRequestListener(rest.app.fetch);
    // The listener answers its own errors (500), so its promise is not awaited.
    server = createServer((incoming, outgoing) => void listener(incoming, outgoing));
    await listen(server, port, host);
  } catch (error) {
    redis.destroy();
    throw error;
  }
  const actualPort = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${actualPort}`,
    port: actualPort,
    rest,
    close: () => (closing ??= shutDown(server, rest, redis)),
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off("listening", onListening);
      const reason = error.code === "EADDRINUSE" ? `port ${port} is already in use` : error.message;
      reject(new Error(`cannot listen on ${host}:${port}: ${reason}`, { cause: error }));
    };
    const onListening = () => {
      server.off("error", onError);
      resolve();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
}

async function shutDown(server: Server, rest: RestApp, redis: OwnedRedisClient): Promise<void> {
  await rest.close();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Idle keep-alive sockets (and streams) would hold close() open for seconds otherwise.
  server.closeAllConnections();
  await closed;
  redis.destroy();
}
