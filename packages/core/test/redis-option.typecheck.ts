// Typecheck-only (never run): `pnpm --filter @edgelock/core typecheck` compiles it. What the
// `redis` option accepts, and what must not compile. The same mistakes are checked against the
// built declarations, in a project with neither @upstash/redis nor redis installed, by
// declarations.test.ts.
import { Redis } from "@upstash/redis";
import { Redis as CloudflareRedis } from "@upstash/redis/cloudflare";
import { createCluster, createClient as createNodeRedis } from "redis";
import { createLockClient } from "../src/lock-entry.ts";
import {
  createClient,
  resolveBackend,
  upstashRestBackend,
  type Backend,
  type RedisInput,
} from "../src/index.ts";

declare const env: { UPSTASH_REDIS_REST_URL: string; UPSTASH_REDIS_REST_TOKEN: string };
const url = env.UPSTASH_REDIS_REST_URL;
const token = env.UPSTASH_REDIS_REST_TOKEN;

export function accepted(): void {
  createClient({ redis: { url, token } });
  createClient({ redis: new Redis({ url, token }) });
  createClient({ redis: Redis.fromEnv() });
  createClient({ redis: new CloudflareRedis({ url, token }) });
  createClient({ redis: createNodeRedis({ url: "redis://127.0.0.1:6379" }) });
  createClient({ redis: createCluster({ rootNodes: [{ url: "redis://127.0.0.1:7000" }] }) });
  createClient({ redis: upstashRestBackend({ url, token }) });
  const backend: Backend = resolveBackend({ url, token });
  createLockClient({ redis: backend });
  const input: RedisInput = { url, token };
  createLockClient({ redis: input });
}

export async function refused(): Promise<void> {
  // @ts-expect-error a URL string: pass { url, token }
  createClient({ redis: "redis://127.0.0.1:6379" });
  // @ts-expect-error a URL string, REST or not
  createClient({ redis: url });
  // @ts-expect-error not a client
  createClient({ redis: 42 });
  // @ts-expect-error an empty object
  createClient({ redis: {} });
  // @ts-expect-error the token is missing
  createClient({ redis: { url } });
  // @ts-expect-error the URL is missing
  createClient({ redis: { token } });
  // @ts-expect-error the URL must be a string
  createClient({ redis: { url: new URL(url), token } });
  // @ts-expect-error the Redis class, not a client
  createClient({ redis: Redis });
  // @ts-expect-error a promise of a client (a forgotten await on connect())
  createClient({ redis: createNodeRedis().connect() });
  // @ts-expect-error the option is required
  createClient({});
  // @ts-expect-error the same for the Lock-only client
  createLockClient({ redis: "redis://127.0.0.1:6379" });
  await Promise.resolve();
}
