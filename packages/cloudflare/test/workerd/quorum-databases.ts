import { keyPrefix } from "@edgelock/testkit";
import { Redis } from "@upstash/redis/cloudflare";
import { env } from "cloudflare:test";
import { resolveBackend } from "../../../core/src/index.ts";
import type { QuorumDatabases } from "../../../core/test/conformance/quorum.conformance.ts";
import { switchableBackend } from "../../../core/test/quorum-backends.ts";
import { WORKERD_TARGET } from "./upstash.ts";

/**
 * Three "databases" for the QuorumLock suite inside workerd: the harness gives workerd one
 * rest-server and no process control, so each database is a key prefix of its own on it, reached
 * by its own `@upstash/redis/cloudflare` client. A database is down while every client to it fails
 * each request before sending it; its data stays, as a stopped redis-server's would. Restarting
 * one empty needs a process: that case is a named skip here.
 */
export function workerdQuorumDatabases(): QuorumDatabases {
  const down = new Set<number>();
  /** Every client's switch to its database, so `down()` reaches the clients made before it. */
  const switches: { db: number; setDown(d: boolean): void }[] = [];
  const prefixes = new Map<string, string[]>();
  // Replies as stored (fences stay strings), as a raw node-redis client reads them on Node.
  const raw = new Redis({
    url: env.UPSTASH_REDIS_REST_URL,
    token: env.UPSTASH_REDIS_REST_TOKEN,
    automaticDeserialization: false,
  });
  return {
    name: `${WORKERD_TARGET}, 3 prefixes`,
    count: 3,
    requestTimeoutMs: 1_000,
    connect(i) {
      const { backend, setDown } = switchableBackend(
        resolveBackend(
          new Redis({ url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN }),
        ),
      );
      setDown(down.has(i));
      switches.push({ db: i, setDown });
      return backend;
    },
    prefixOf(i, prefix) {
      if (!prefixes.has(prefix)) prefixes.set(prefix, [keyPrefix(), keyPrefix(), keyPrefix()]);
      return prefixes.get(prefix)![i]!;
    },
    async down(which) {
      for (const i of which) down.add(i);
      for (const s of switches) if (which.includes(s.db)) s.setDown(true);
    },
    async revive() {
      down.clear();
      for (const s of switches) s.setDown(false);
    },
    exists: async (i, key) => (down.has(i) ? null : (await raw.exists(key)) === 1),
    hGet: async (i, key, field) => ((await raw.hget(key, field)) as string | null) ?? null,
    set: async (_i, key, value) => void (await raw.set(key, value)),
    del: async (_i, key) => void (await raw.del(key)),
    restartEmpty: {
      skip: "no process control in workerd (one rest-server): Node's REST and TCP runs restart one",
    },
  };
}
