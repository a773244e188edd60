import { keyPrefix } from "@edgelock/testkit";
import { Redis } from "@upstash/redis/cloudflare";
import { env } from "cloudflare:test";
import { quorumLock, type QuorumLock, type QuorumLockOptions } from "../../../core/src/index.ts";
import { quorumKeys } from "../../../core/src/keys.ts";
import { makeTestClient, type TestClient } from "../../../core/test/support.ts";
import { workerdRedis } from "./upstash.ts";

/**
 * The token of a database that is "down": the rest-server refuses each request (401) before it
 * runs. A port nothing listens on would be closer to a stopped process, but workerd logs every
 * refused connection as an uncaught exception even when the caller catches it.
 */
const REFUSED_TOKEN = "database-down-in-this-test";

/**
 * N "databases" for a quorum lock inside workerd: the harness gives workerd one rest-server, so
 * each database is a key prefix of its own on it, reached by its own `@upstash/redis/cloudflare`
 * client. A database is taken down by giving its client a token the rest-server refuses: its data
 * stays, as a stopped redis-server's would, and each of the lock's requests to it fails over HTTP.
 */
export function quorumDatabases(count: number) {
  const prefixes = Array.from({ length: count }, () => keyPrefix());
  const raw = workerdRedis();
  const clients = (down: readonly number[] = []): TestClient[] =>
    prefixes.map((prefix, i) => {
      const token = down.includes(i) ? REFUSED_TOKEN : env.UPSTASH_REDIS_REST_TOKEN;
      const redis = new Redis({ url: env.UPSTASH_REDIS_REST_URL, token });
      return makeTestClient(redis, { prefix, leaseMs: 5_000 });
    });
  return {
    /** A quorum lock over every database, `down` ones refusing every request. */
    lock(
      name: string,
      down: readonly number[] = [],
      options: QuorumLockOptions = { requestTimeoutMs: 1_000 },
    ): { lock: QuorumLock; dbs: TestClient[] } {
      const dbs = clients(down);
      return {
        lock: quorumLock(
          dbs.map((d) => d.client),
          name,
          options,
        ),
        dbs,
      };
    },
    /** Whether each database holds `name`, read straight from the rest-server (down ones too). */
    held: (name: string) =>
      Promise.all(prefixes.map(async (p) => (await raw.exists(quorumKeys(p, name).lock)) === 1)),
    /** Stores a fence counter on one database, as a database that granted more often would have. */
    setFence: (i: number, name: string, fence: number) =>
      raw.set(quorumKeys(prefixes[i]!, name).fence, String(fence)),
  };
}
