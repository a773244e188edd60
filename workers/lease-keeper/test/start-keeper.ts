import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { runWorker, type BuiltWorker } from "@edgelock/testkit/worker";

const root = dirname(dirname(fileURLToPath(import.meta.url)));

export interface RunningKeeper {
  /** http://127.0.0.1:PORT: the keeper Worker, as callers outside Cloudflare reach it. */
  readonly url: string;
  readonly secret: string;
  readonly build: BuiltWorker;
  close(): Promise<void>;
}

/** The keeper Worker as deployed (wrangler's bundle), in workerd, talking to this Upstash-compatible REST URL. */
export async function startKeeper(
  rest: { url: string; token: string },
  secret = "keeper-secret-for-tests",
): Promise<RunningKeeper> {
  const worker = await runWorker(
    root,
    {
      UPSTASH_REDIS_REST_URL: rest.url,
      UPSTASH_REDIS_REST_TOKEN: rest.token,
      EDGELOCK_KEEPER_SECRET: secret,
    },
    { LEASE_KEEPER: "LeaseKeeper" },
  );
  return { url: worker.url, secret, build: worker.build, close: worker.close };
}
