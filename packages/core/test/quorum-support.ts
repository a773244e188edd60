import { makeNodeRedis, type NodeRedisClient, type RedisProcess } from "@edgelock/testkit";
import type { RedisInput } from "../src/index.ts";
import type { QuorumDatabases } from "./conformance/quorum.conformance.ts";

/** Raw node-redis clients to the databases, for checking what is left behind. */
export async function rawClients(nodes: readonly RedisProcess[]): Promise<NodeRedisClient[]> {
  return Promise.all(nodes.map((n) => makeNodeRedis(n.url)));
}

/** Restarts every database that is not running (keeping its data). */
export async function reviveAll(nodes: readonly RedisProcess[]): Promise<void> {
  await Promise.all(nodes.filter((n) => !n.running).map((n) => n.restart()));
}

/**
 * Separate redis-server processes as a quorum's databases (the QuorumLock suite on Node): a
 * database is down while its process is killed; `connect(i)` is how the lock's clients reach it
 * (node-redis over TCP, or @upstash/redis through a rest-server in front of it).
 */
export function serverDatabases(options: {
  readonly name: string;
  readonly requestTimeoutMs: number;
  /** The processes and a raw node-redis client to each, once started (in `beforeAll`). */
  servers(): { nodes: readonly RedisProcess[]; raws: readonly NodeRedisClient[] };
  connect(i: number): RedisInput;
  /** Run on revive, e.g. clearing injected faults. */
  onRevive?(): Promise<void>;
}): QuorumDatabases {
  const nodes = () => options.servers().nodes;
  const raw = (i: number) => options.servers().raws[i]!;
  return {
    name: options.name,
    count: 5,
    requestTimeoutMs: options.requestTimeoutMs,
    connect: options.connect,
    prefixOf: (_i, prefix) => prefix,
    down: async (which) => void (await Promise.all(which.map((i) => nodes()[i]!.kill()))),
    async revive() {
      await options.onRevive?.();
      await reviveAll(nodes());
      await Promise.all(options.servers().raws.map((r) => r.ping()));
    },
    exists: async (i, key) => (nodes()[i]!.running ? (await raw(i).exists(key)) === 1 : null),
    hGet: async (i, key, field) => (await raw(i).hGet(key, field)) ?? null,
    set: async (i, key, value) => void (await raw(i).set(key, value)),
    del: async (i, key) => void (await raw(i).del(key)),
    restartEmpty: (i) => nodes()[i]!.restart({ flush: true }),
  };
}
