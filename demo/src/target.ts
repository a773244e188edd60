import { startRestServer } from "@edgelock/rest-server";
import { startRedis } from "@edgelock/testkit";
import { randomBytes } from "node:crypto";

/** Where the demo talks to: a real Upstash database when credentials are set, else a local stack. */
export interface DemoTarget {
  readonly url: string;
  readonly token: string;
  readonly description: string;
  /** HTTP requests served so far, when we run the server ourselves (a remote Upstash does not tell). */
  requests(): number | undefined;
  close(): Promise<void>;
}

export async function openTarget(env: NodeJS.ProcessEnv): Promise<DemoTarget> {
  const url = env["UPSTASH_REDIS_REST_URL"];
  const token = env["UPSTASH_REDIS_REST_TOKEN"];
  if (url && token) {
    return {
      url,
      token,
      description: `Upstash at ${new URL(url).host}`,
      requests: () => undefined,
      close: async () => {},
    };
  }
  // No credentials: a redis-server of our own on a free port, and our Upstash-compatible REST
  // server in front of it, so the demo takes the same HTTP path as a Worker would.
  const redis = await startRedis();
  const localToken = randomBytes(16).toString("hex");
  const server = await startRestServer({ redisUrl: redis.url, token: localToken });
  return {
    url: server.url,
    token: localToken,
    description: `a local redis-server (${redis.url}) behind @edgelock/rest-server (${server.url})`,
    requests: () => server.rest.stats().httpRequests,
    async close() {
      await server.close();
      await redis.stop();
    },
  };
}
