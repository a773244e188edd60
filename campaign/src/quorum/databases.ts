import { startRedis, type RedisProcess } from "@edgelock/testkit";

/**
 * The quorum's databases: independent redis-servers with an append-only file (`appendfsync
 * always`), so a crash or bounce alone loses nothing and only a restart with `flush` loses data;
 * and the resource's redis-server, never faulted.
 */
export interface QuorumInfrastructure {
  readonly dbs: readonly RedisProcess[];
  readonly resource: RedisProcess;
  stop(): Promise<void>;
}

export async function startQuorumInfrastructure(count: number): Promise<QuorumInfrastructure> {
  const [resource, ...dbs] = await Promise.all(
    Array.from({ length: count + 1 }, (_, i) => startRedis({ persistence: i > 0 })),
  );
  return {
    dbs,
    resource: resource!,
    async stop() {
      await Promise.all([resource!, ...dbs].map((p) => p.stop()));
    },
  };
}
