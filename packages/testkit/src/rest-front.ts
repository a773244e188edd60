import { startRestServer } from "@edgelock/rest-server";
import { randomToken } from "./random-token.ts";

/** A rest-server of our own in front of a Redis, with fault injection on. */
export interface RestFront {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  readonly token: string;
  close(): Promise<void>;
}

export interface RestFrontOptions {
  /** `redisUrl` is a node of a Redis Cluster (see `startCluster`). @default false */
  readonly cluster?: boolean;
}

export async function startRestFront(
  redisUrl: string,
  options: RestFrontOptions = {},
): Promise<RestFront> {
  const token = randomToken();
  const cluster = options.cluster ?? false;
  const server = await startRestServer({ redisUrl, token, enableFaults: true, cluster });
  return { url: server.url, token, close: () => server.close() };
}
